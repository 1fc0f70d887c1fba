import { LANGUAGES } from '../languages';
import { z } from 'zod';
import { answer, namedRef, stampsShape, whole } from '../answer-schema';
import { membershipInputSchema } from './membership';
import { searchText } from '../list';
import { ADDRESS_TYPES, addressTypeSchema, addressValueText, checkAddressValue, normalizeAddress } from '../address';
import { MESSAGES, atMostCharacters } from '../messages';
import { optionalText, requiredText } from '../zod-helpers';

// Contacts: a name, a note, addresses (e-mail or phone, in order, each unique in the organisation),
// tags, and values of custom fields (attributes).

export const CONTACT_MESSAGES = {
  addressTypeLocked: 'The address type cannot be changed',
  unknownAddress: 'This address does not belong to the contact',
  unknownTag: 'Tag not found',
  unknownField: 'Field not found',
  unknownOption: 'Choose one of the field options',
  attributeValue: 'Not a valid value for this field',
  expectNumber: MESSAGES.mustBeNumber,
  expectText: MESSAGES.mustBeText,
  expectBoolean: MESSAGES.mustBeBoolean,
  expectOption: 'Must be one option: { option_id }',
  expectOptions: 'Must be a list of options: [{ option_id }]',
  attributesFilter: 'attributes must look like <field_id>:<value>',
  referenceGone: 'A tag, field or option used by the contact no longer exists. Reload and try again.',
} as const;

const positiveId = (message: string) => z.number({ error: message }).int(message).positive(message);

const addressSchema = z
  .object({
    /** An existing address of the contact (keeps its type); absent for a new one. Ignored on create. */
    id: positiveId('Must be an address id').optional(),
    type: addressTypeSchema,
    value: addressValueText,
  })
  .strict()
  .superRefine((address, ctx) => checkAddressValue(address, ctx))
  .transform((address) => ({ ...address, value: normalizeAddress(address.type, address.value) }));

const addressesSchema = z
  .array(addressSchema, { error: (issue) => (issue.input == null ? MESSAGES.requiredList : MESSAGES.mustBeList) })
  .min(1, MESSAGES.requiredList)
  .max(50, 'At most 50 addresses')
  .superRefine((addresses, ctx) => {
    const values = new Set<string>();
    const ids = new Set<number>();
    addresses.forEach((address, i) => {
      if (typeof address?.value !== 'string') return;
      const key = `${address.type}:${address.value}`;
      if (values.has(key)) ctx.addIssue({ code: 'custom', message: MESSAGES.duplicate, path: [i, 'value'] });
      values.add(key);
      if (address.id !== undefined && ids.has(address.id)) ctx.addIssue({ code: 'custom', message: MESSAGES.duplicate, path: [i, 'id'] });
      if (address.id !== undefined) ids.add(address.id);
    });
  });

const optionRef = z.object({ option_id: positiveId('Must be an option id') }).strict();

/**
 * An attribute value, typed by its field: number -> number, text -> string, boolean -> boolean,
 * select -> { option_id }, multiselect -> [{ option_id }]. null (or '' for text, [] for multiselect) clears it.
 */
export const attributeValueSchema = z.union(
  [z.null(), z.number(), z.boolean(), z.string().trim().max(2000, atMostCharacters(2000)), optionRef, z.array(optionRef).max(500)],
  { error: (issue) => (issue.input === undefined ? MESSAGES.required : CONTACT_MESSAGES.attributeValue) },
);
export type AttributeValue = z.infer<typeof attributeValueSchema>;

const attributesSchema = z
  .array(z.object({ field_id: positiveId('Must be a field id'), value: attributeValueSchema }).strict())
  .max(500, 'At most 500 attributes')
  .superRefine((attributes, ctx) => {
    const seen = new Set<number>();
    attributes.forEach((attribute, i) => {
      if (typeof attribute?.field_id !== 'number') return;
      if (seen.has(attribute.field_id)) ctx.addIssue({ code: 'custom', message: MESSAGES.duplicate, path: [i, 'field_id'] });
      seen.add(attribute.field_id);
    });
  });

/**
 * POST /contact and PUT/PATCH /contact/{id} (spec 7: name, note, addresses, tags, attributes).
 * PUT replaces the whole contact (a missing note, tags or attributes means none); PATCH changes only what it sends.
 * On update, send existing addresses with their id: their type cannot change; addresses left out are removed.
 */
export const contactInputSchema = z
  .object({
    name: requiredText(200),
    note: optionalText(5000),
    /** The language the contact reads (the preferences page opens in it); null or absent when unknown. */
    language: z.enum(LANGUAGES, { error: 'Choose one of the languages' }).nullish(),
    addresses: addressesSchema,
    /** Tag ids of the organisation (a repeated id counts once). */
    tags: z.array(positiveId('Must be a tag id')).max(1000, 'At most 1000 tags').optional(),
    /** One per field. */
    attributes: attributesSchema.optional(),
    /**
     * Memberships the organisation sets with the contact (it collected the consent elsewhere), as PUT
     * /contact/{id}/memberships takes them; subscriptions left out keep their standing.
     */
    subscriptions: z.array(membershipInputSchema).max(1000, 'At most 1000 subscriptions').optional(),
  })
  .strict();
export type ContactInput = z.infer<typeof contactInputSchema>;

export const contactAddressSchema = answer({ id: whole(), type: z.enum(ADDRESS_TYPES), value: z.string() });
export type ContactAddress = z.infer<typeof contactAddressSchema>;

const chosenOption = answer({ option_id: whole() });
export const contactAttributeSchema = answer({
  field_id: whole(),
  value: z
    .union([z.number(), z.string(), z.boolean(), chosenOption, z.array(chosenOption)])
    .describe('As the field type: number, text, boolean, one option or several'),
});
export type ContactAttribute = z.infer<typeof contactAttributeSchema>;

export const contactSchema = answer({
  id: whole(),
  name: z.string(),
  note: z.string().nullable(),
  language: z.enum(LANGUAGES).nullable().describe('The language the contact reads, null when unknown'),
  addresses: z.array(contactAddressSchema).describe('In the order they were given'),
  tags: z.array(namedRef()),
  attributes: z.array(contactAttributeSchema).describe('Fields in their display order; only fields that have a value'),
  blacklisted_addresses: z.array(whole()).describe("Ids of its addresses on the organisation's blacklist: nothing is sent to them"),
  ...stampsShape,
});
export type Contact = z.infer<typeof contactSchema>;

/** One `attributes` list filter: field id and the value text after the colon. */
export interface AttributeFilter {
  field_id: number;
  value: string;
}

const asArray = (v: unknown) => (v === undefined || Array.isArray(v) ? v : [v]);

/**
 * GET /contact filters besides the shared list parameters (search looks through name, note and address values).
 * Arrays go as repeated keys (in a bulk-delete body, as JSON arrays):
 * - `tags=3&tags=7`: contacts having any of these tags.
 * - `address=example.com`: contacts with an address containing the text.
 * - `attributes=<field_id>:<value>`, e.g. `attributes=4:gold&attributes=9:true`: the value is compared exactly, by the
 *   field's type: number (`9:42`), text (`5:gold`), boolean (`6:true` / `6:false`), select or multiselect by option id
 *   (`7:31`: has that option). Several values for the same field match any of them; different fields must all match.
 */
export const contactFilterShape = {
  tags: z.preprocess(
    asArray,
    z
      .array(z.coerce.number({ error: 'tags must be tag ids' }).int('tags must be tag ids').positive('tags must be tag ids'))
      .max(100)
      .optional(),
  ),
  address: searchText('address').max(254, 'address is too long').optional(),
  attributes: z.preprocess(
    asArray,
    z
      .array(
        z
          .string()
          .regex(/^[1-9]\d{0,15}:[\s\S]{0,200}$/, CONTACT_MESSAGES.attributesFilter)
          .transform((text): AttributeFilter => {
            const colon = text.indexOf(':');
            return { field_id: Number(text.slice(0, colon)), value: text.slice(colon + 1) };
          }),
      )
      .max(50)
      .optional(),
  ),
};

/** The contact filters alone, e.g. for a broadcast's recipients ({ filter, search }). */
export const contactFilterSchema = z.object(contactFilterShape).strict();
