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
  // Identity and the account area (spec sections 5 and 8).
  passwordsMismatch: 'The passwords do not match. Enter the same password twice.',
  passwordMinLength: 'Password must be at least 6 characters long',
  passwordUppercase: 'Password must contain an uppercase letter',
  passwordLowercase: 'Password must contain a lowercase letter',
  passwordDigit: 'Password must contain a digit',
  passwordSpecial: 'Password must contain one of the special characters !=@-+#$%^&*{}_',
  noAccount: 'No account with this email.',
  currentPasswordWrong: 'Current password wrong',
  socialAlreadyLinked: 'Social account already linked to another user.',
  lastLoginMethod: 'At least one active method must remain.',
  resetLinkInvalid: 'Reset link invalid or expired: request a new one.',
  resetRequested: 'If an account exists for this address, we have emailed a link to reset its password.',
  signCompleteInvalid: 'Sign-up completion link no longer valid',
  registrationIncomplete: 'Complete your registration from the link we emailed you first.',
  orgDomainInvalid: 'Only the part before the platform domain, e.g. my-org: lowercase letters, digits and hyphens',
  orgDomainReserved: 'This domain is reserved, choose another one',
  registrationPaused: 'Registration is paused: send a pre-registration request instead.',
  registrationClosed: 'Sign-up is not available.',
  apiKeyExists: 'You already have an API key: regenerate it to get a new one.',
  demoLocked: 'This is a shared demo: this feature is locked.',
  sessionRequired: 'Sign in to the console to manage your account.',
  confirmMismatch: 'Type your login exactly as shown to confirm',
  socialDenied: 'The sign-in was cancelled or refused at the provider.',
  socialFailed: 'The provider could not confirm who you are. Try again.',
  socialOtherAccountLinked: 'You have already linked another account of this provider: unlink it first.',
  socialStateInvalid: 'This sign-in link is invalid or has expired. Start again.',
  socialForeignState: 'This sign-in or link was not started in this browser. Start again.',
  // Generic field messages of the request schemas.
  mustBeText: 'Must be text',
  mustBeNumber: 'Must be a number',
  mustBeBoolean: 'Must be true or false',
  mustBeList: 'Must be a list',
  mustBeDate: 'Must be a date and time',
} as const;

// Texts that carry a value. The console finds them by pattern (web/src/lib/message-keys.ts) and shows them
// in the user's language with the value put back.
/** A text longer than its limit. */
export const atMostCharacters = (max: number) => `At most ${max} characters`;
/** Spec 5: a number at or below its lower bound. */
export const greaterThan = (value: number) => `Value must be greater than "${value}"`;
