import { z } from 'zod';
import { addressTypeSchema, addressValueText, checkAddressValue, type AddressType } from '../address';
import { optionalText } from '../zod-helpers';

// Blocked addresses: never sent to. Created and deleted, never edited. The value takes the format of its type
// (the same rules as contact addresses) and is stored in its normalised spelling (e-mail lower-cased).

/** POST /blacklist. A duplicate type + value is a 422 on `value`. */
export const blacklistInputSchema = z
  .object({
    type: addressTypeSchema,
    value: addressValueText,
    /** Why the address is blocked. */
    info: optionalText(1000),
  })
  .strict()
  // A whole-object check: fine here because the blacklist has no PATCH (zod refuses .partial() on refined objects).
  .superRefine((input, ctx) => checkAddressValue(input, ctx));
export type BlacklistInput = z.infer<typeof blacklistInputSchema>;

export interface BlacklistEntry {
  id: number;
  type: AddressType;
  value: string;
  info: string | null;
  created_at: string;
}

/** GET /blacklist filters, besides the shared list parameters (search looks through value and info). */
export const blacklistFilterShape = {
  type: addressTypeSchema.optional(),
};
