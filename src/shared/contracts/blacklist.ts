import { z } from 'zod';
import { SUPPRESSION_REASONS } from './suppression';
import { answer, moment, whole } from '../answer-schema';
import { ADDRESS_TYPES, addressTypeSchema, addressValueText, checkAddressValue } from '../address';
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

export const blacklistEntrySchema = answer({
  id: whole(),
  type: z.enum(ADDRESS_TYPES),
  value: z.string(),
  info: z.string().nullable(),
  reason: z
    .enum(SUPPRESSION_REASONS)
    .nullable()
    .describe('Why the platform added it (a bounce, repeated soft bounces, a spam complaint); null: added by hand or the API'),
  message_id: whole().nullable().describe('The message whose bounce or complaint added it'),
  created_at: moment(),
});
export type BlacklistEntry = z.infer<typeof blacklistEntrySchema>;

/** GET /blacklist filters, besides the shared list parameters (search looks through value and info). */
export const blacklistFilterShape = {
  type: addressTypeSchema.optional(),
};
