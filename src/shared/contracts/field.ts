import { z } from 'zod';
import { answer, stampsShape, whole } from '../answer-schema';
import { MESSAGES } from '../messages';
import { requiredText } from '../zod-helpers';

// Custom contact fields. A field's alias names it in templates ({{ contact.fields.<alias> }}); its type is
// chosen on create only; select and multiselect fields carry options, other types never do.

export const FIELD_TYPES = ['number', 'text', 'select', 'multiselect', 'boolean'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose values are picked from the field's options. */
export const OPTION_FIELD_TYPES: readonly FieldType[] = ['select', 'multiselect'];

export const FIELD_MESSAGES = {
  alias: 'Use lower-case letters, digits and underscores, starting with a letter',
  type: `Choose one of: ${FIELD_TYPES.join(', ')}`,
  typeLocked: 'The field type cannot be changed after creation',
  unknownOption: 'This option does not belong to the field',
} as const;

export const FIELD_ALIAS_PATTERN = /^[a-z][a-z0-9_]*$/;

/** True when values of this field type are options. */
export function hasOptions(type: string): boolean {
  return (OPTION_FIELD_TYPES as readonly string[]).includes(type);
}

const optionSchema = z
  .object({
    /** An existing option to rename; without it the option is added. Ignored on create. */
    id: z.number({ error: 'Must be an option id' }).int().positive().optional(),
    value: requiredText(200),
  })
  .strict();

/** Options in display order; a value may appear once per field. */
const optionsSchema = z
  .array(optionSchema)
  .max(500, 'At most 500 options')
  .superRefine((options, ctx) => {
    const seen = new Set<string>();
    options.forEach((option, i) => {
      if (typeof option?.value !== 'string') return;
      if (seen.has(option.value)) ctx.addIssue({ code: 'custom', message: MESSAGES.duplicate, path: [i, 'value'] });
      seen.add(option.value);
    });
  });

const common = {
  name: requiredText(100),
  // Empty is left to the 'required' message alone.
  alias: requiredText(64).refine((alias) => alias === '' || FIELD_ALIAS_PATTERN.test(alias), FIELD_MESSAGES.alias),
  /** Only for select and multiselect; dropped for other types. Omitted on update: options stay as they are. */
  options: optionsSchema.optional(),
};

/** POST /field. */
export const fieldInputSchema = z
  .object({
    ...common,
    type: z.enum(FIELD_TYPES, { error: (issue) => (issue.input == null ? MESSAGES.required : FIELD_MESSAGES.type) }),
  })
  .strict();

/**
 * PUT/PATCH /field/{id}: like create, but the type is fixed. On update, options with an id are renamed,
 * options without one are added, and existing options left out are removed (with the contact values that used them).
 */
export const fieldUpdateSchema = z
  .object({
    ...common,
    type: z.never({ error: FIELD_MESSAGES.typeLocked }).optional(),
  })
  .strict();

export type FieldInput = z.infer<typeof fieldInputSchema>;
export type FieldUpdateInput = z.infer<typeof fieldUpdateSchema>;

export const fieldOptionSchema = answer({ id: whole(), value: z.string() });
export type FieldOption = z.infer<typeof fieldOptionSchema>;

export const fieldSchema = answer({
  id: whole(),
  name: z.string(),
  alias: z.string(),
  type: z.enum(FIELD_TYPES),
  priority: whole(),
  options: z.array(fieldOptionSchema).describe('In display order; empty for types without options'),
  ...stampsShape,
});
export type Field = z.infer<typeof fieldSchema>;

/** GET /field filters, besides the shared list parameters. */
export const fieldFilterShape = {
  type: z.enum(FIELD_TYPES, { error: FIELD_MESSAGES.type }).optional(),
};
