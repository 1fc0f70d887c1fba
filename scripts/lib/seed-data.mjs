// The example organisation and user that `npm start` seeds and the browser tests sign in with.
export const SEED_ORG = { name: 'Acme Inc', domain: 'acme' };

export const SEED_USER = {
  name: 'Ada Admin',
  username: 'admin@acme.test',
  email: 'admin@acme.test',
  password: 'Acme-2026!',
};
