// The list contract's sizes, in a file of their own without zod: the console's settings defaults need one
// (console-settings.ts), and importing it from list.ts loaded all of zod into the sign-in page's first script.
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_WITH_IDS = 100;
export const PAGE_SIZE_MAX = 100;
export const REMOVING_PAGE_SIZE = 100;
/** The most ids one request may name (bulk delete, reorder, list filter). */
export const IDS_MAX = 1000;
