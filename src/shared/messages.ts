// User-facing message texts fixed by the product spec. The server sends them; the console shows them
// (translated through the locale files where a key exists). One place for each text.
export const MESSAGES = {
  required: 'This field is required',
  requiredList: 'At least one item must be selected',
  invalidForm: 'Some fields are filled incorrectly. Fix the errors and try again.',
  invalidEmail: 'Invalid email address. Please enter a valid email',
  invalidUrl: 'Invalid URL. Please enter a valid address',
  duplicate: 'Value already exists, use a different one.',
  loginFailed: 'Invalid email or password. Please check your credentials and try again.',
  tooManyAttempts: 'Too many failed sign-in attempts. Try again later.',
  orgNotFound: 'Organisation not found',
  notFound: 'Not found',
  unauthorized: 'Authentication required',
  sessionExpired: 'Your session has expired. Please sign in again.',
  invalidJson: 'Malformed JSON in request body',
  rateLimited: 'Too many requests. Try again later.',
  internal: 'Something went wrong on our side. Try again later.',
} as const;
