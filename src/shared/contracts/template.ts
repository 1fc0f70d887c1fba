import { z } from 'zod';
import { answer, stampsShape, whole } from '../answer-schema';
import { MESSAGES, atMostCharacters } from '../messages';
import { optionalText, requiredText } from '../zod-helpers';
import type { SenderType } from './sender';

// Templates: the content of messages. html and email templates go out as email, with their subject (email also
// has an optional plain-text part); text templates go out as SMS through a phone sender. The type is fixed at
// creation.
export const TEMPLATE_TYPES = ['html', 'text', 'email'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/**
 * Whether a template of the type carries a subject: html and email templates do (they go out by email); a text
 * template does not. A mail never goes out with a subject the user did not write: an email without one is refused.
 */
export const hasSubject = (type: TemplateType) => type !== 'text';

export const TEMPLATE_LIMITS = {
  body: 300_000,
  bodyPlain: 100_000,
  subject: 1_000,
  /** Rendered output, in UTF-8 bytes. */
  renderedBodyBytes: 1_000_000,
  renderedPlainBytes: 500_000,
  renderedSubjectBytes: 2_000,
  /** One SMS (Twilio accepts at most 1600 characters). */
  smsCharacters: 1_600,
} as const;

/** Template attachments: checked on the server on upload. */
export const ATTACHMENT_RULES = {
  maxBytes: 15_000_000,
  /** How the limit reads in messages ('larger than 15 MB'). */
  maxLabel: '15 MB',
  extensions: ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'csv', 'jpg', 'jpeg', 'png', 'gif', 'bmp', 'svg', 'zip', 'rar', '7z', 'json', 'xml'],
  /** Files in one upload request. */
  maxFilesPerUpload: 20,
} as const;

export const TEMPLATE_MESSAGES = {
  type: 'Type must be html, text or email',
  alias: 'Use only letters, digits, dots, dashes and underscores',
  unsupportedFile: (name: string) => `File ${name} has an unsupported type`,
  tooLarge: (names: string[]) =>
    names.length === 1
      ? `File ${names[0]} is larger than ${ATTACHMENT_RULES.maxLabel}`
      : `Files ${names.join(', ')} are larger than ${ATTACHMENT_RULES.maxLabel}`,
  noFiles: 'Choose at least one file',
  tooManyFiles: `At most ${ATTACHMENT_RULES.maxFilesPerUpload} files at once`,
  subjectFailed: (error: string) => `subject generation failed: ${error}`,
  bodyFailed: (error: string) => `body generation failed: ${error}`,
  bodyPlainFailed: (error: string) => `plain body generation failed: ${error}`,
  contactNotFound: 'Contact not found',
  senderNotFound: 'Sender not found',
  templateNotFound: 'Template not found',
  blacklisted: 'This address is on the blacklist; nothing is sent to it',
  textNeedsPhone: 'Text templates go out as SMS: choose a phone sender',
  noSubject: 'This template has no subject: add one before it is sent by email',
  smsTooLong: `The text is longer than the ${TEMPLATE_LIMITS.smsCharacters} characters an SMS can carry`,
} as const;

/**
 * The one pairing of templates and senders (spec 5), for test messages, campaign entries and broadcasts alike:
 * html and email templates go out by email from email senders; text templates go out as SMS from phone senders.
 */
export function senderFitsTemplate(templateType: TemplateType, senderType: SenderType): boolean {
  return templateType === 'text' ? senderType === 'phone' : senderType === 'email';
}

/** The message shown when a sender cannot send a template. */
export function senderMismatchMessage(templateType: TemplateType): string {
  if (templateType === 'text') return TEMPLATE_MESSAGES.textNeedsPhone;
  const label = templateType === 'html' ? 'HTML' : templateType.charAt(0).toUpperCase() + templateType.slice(1);
  return `${label} templates are sent by email: choose an email sender`;
}

export const ALIAS = /^[A-Za-z0-9._-]+$/;

/** An optional alias: empty becomes null; otherwise letters, digits, dots, dashes, underscores. */
export function aliasText() {
  return optionalText(100).refine((v) => v === null || ALIAS.test(v), TEMPLATE_MESSAGES.alias);
}

/** Text kept as written (no trimming: whitespace can matter in a template); empty becomes null. */
const keptText = (max: number) =>
  z
    .string()
    .max(max, atMostCharacters(max))
    .nullish()
    .transform((v) => (v?.trim() ? v : null));

const templateFields = {
  name: requiredText(200),
  alias: aliasText(),
  note: optionalText(1000),
  /** html and email templates (dropped for text). Liquid placeholders allowed. Needed before the template is sent by email. */
  subject: optionalText(TEMPLATE_LIMITS.subject),
  body: z
    .string()
    .max(TEMPLATE_LIMITS.body, atMostCharacters(TEMPLATE_LIMITS.body))
    .refine((v) => v.trim().length > 0, MESSAGES.required),
  /** Email templates only: plain-text alternative; when empty the sender derives it from the html. */
  body_plain: keptText(TEMPLATE_LIMITS.bodyPlain),
};

/** POST /template. Template syntax is checked on save (a parse error is a 422 on that field). */
export const templateInputSchema = z
  .object({
    type: z.enum(TEMPLATE_TYPES, { error: (i) => (i.input === undefined ? MESSAGES.required : TEMPLATE_MESSAGES.type) }),
    ...templateFields,
  })
  .strict();
export type TemplateInput = z.infer<typeof templateInputSchema>;

/** PUT/PATCH /template/{id}: everything but the type, which cannot change. */
export const templateUpdateSchema = z.object(templateFields).strict();
export type TemplateUpdate = z.infer<typeof templateUpdateSchema>;

export const templateAttachmentSchema = answer({ id: whole(), file_name: z.string(), size: whole(), content_type: z.string() });
export type TemplateAttachment = z.infer<typeof templateAttachmentSchema>;

export const templateSchema = answer({
  id: whole(),
  type: z.enum(TEMPLATE_TYPES),
  name: z.string(),
  alias: z.string().nullable(),
  note: z.string().nullable(),
  subject: z.string().nullable(),
  body: z.string(),
  body_plain: z.string().nullable(),
  attachments: z.array(templateAttachmentSchema),
  ...stampsShape,
});
export type Template = z.infer<typeof templateSchema>;

/** Items of GET /template leave out the bodies (GET /template/{id} has them). */
export const templateListItemSchema = templateSchema.omit({ body: true, body_plain: true });
export type TemplateListItem = z.infer<typeof templateListItemSchema>;

/** POST /template/{id}/preview: render for one contact of the organisation (none = placeholders empty). */
export const templatePreviewSchema = z.object({ contact_id: z.number({ error: 'Choose a contact' }).int().positive().nullish() }).strict();

export interface TemplatePreview {
  subject: string | null;
  body: string;
  body_plain: string | null;
}

/**
 * POST /template/{id}/test: send one test message from a sender to an address or phone typed by the user
 * (in the sender type's format; never to a blacklisted address). Answers 202 with the queued message.
 * html and email templates need an email sender; text templates go as SMS from a phone sender. An email takes
 * its template's subject: an html or email template without one is refused. Attachments go with every email.
 */
export const testMessageSchema = z
  .object({
    sender_id: z
      .number({ error: (i) => (i.input == null ? MESSAGES.required : 'Choose a sender') })
      .int()
      .positive(),
    to: requiredText(254),
    contact_id: z.number({ error: 'Choose a contact' }).int().positive().nullish(),
  })
  .strict();
export type TestMessageInput = z.infer<typeof testMessageSchema>;

/**
 * Placeholders: Liquid syntax (https://liquidjs.com), e.g. `Hello {{ contact.name }}` or
 * `{% if contact.fields.vip %}...{% endif %}`. A variable that does not exist renders as nothing; a syntax
 * error is refused when the template is saved; an error while rendering stops the message and is reported as
 * 'subject generation failed: ...' or 'body generation failed: ...'. Rendering is limited in steps and
 * size, so a template cannot loop forever. html and email bodies are not HTML-escaped automatically: use
 * `{{ value | escape }}` where a value may contain markup.
 */
export const TEMPLATE_SYNTAX = 'liquid';

/** The variables a template can use, for the console's help panel. */
export const TEMPLATE_VARIABLES: { name: string; description: string; example: string }[] = [
  { name: 'contact.name', description: "The contact's name", example: '{{ contact.name }}' },
  { name: 'contact.note', description: "The contact's note", example: '{{ contact.note }}' },
  { name: 'contact.email', description: 'The first email address of the contact', example: '{{ contact.email }}' },
  { name: 'contact.phone', description: 'The first phone number of the contact', example: '{{ contact.phone }}' },
  {
    name: 'contact.addresses',
    description: 'All addresses of the contact, each with type (email or phone) and value',
    example: '{% for a in contact.addresses %}{{ a.type }}: {{ a.value }} {% endfor %}',
  },
  {
    name: 'contact.fields.<alias>',
    description: 'A custom field by its alias: a number, text, true/false, the chosen option of a select, or the list of chosen options of a multiselect',
    example: "{{ contact.fields.city }} {{ contact.fields.interests | join: ', ' }}",
  },
  { name: 'organization.name', description: 'The name of your organisation', example: '{{ organization.name }}' },
  { name: 'organization.domain', description: 'The subdomain of your organisation', example: '{{ organization.domain }}' },
  {
    name: 'unsubscribe_url',
    description: 'A personal link to the unsubscribe page for this contact and message',
    example: '<a href="{{ unsubscribe_url }}">Unsubscribe</a>',
  },
];
