/** SWR key of the organisation's guest init data: it belongs to the organisation, not to a user, and survives sign-out. */
export const GUEST_INIT_KEY = 'init/guest';
