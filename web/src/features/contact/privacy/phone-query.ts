/** Phone width, where the privacy dialogs take the whole screen (as the other screens' phone layouts). */
export const PHONE_QUERY = '(max-width: 36em)';
