import type { Field } from '@shared/contracts/field';
import { IMPORT_MESSAGES } from '@shared/contracts/import';
import type { MappingProblem } from './mapping';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** How a mapping choice reads: 'Name', 'Address: email', 'Field: Level', 'Ignore'... */
export function choiceLabel(t: Translate, choice: string, fields: Pick<Field, 'id' | 'name'>[]): string {
  const [kind, detail] = choice.split(':');
  if (kind === 'address') return t('imports.choices.address', { type: t(`audience.addressTypes.${detail}`) });
  if (kind === 'field') {
    const field = fields.find((candidate) => candidate.id === Number(detail));
    return t('imports.choices.field', { name: field?.name ?? `#${detail}` });
  }
  return t(`imports.targets.${kind}`);
}

/** The label of a column: its header (when the first line is one) or 'Column N'. */
export function columnLabel(t: Translate, column: number, headers: string[] | null): string {
  const header = headers?.[column]?.trim();
  return header ? header : t('imports.columnN', { number: column + 1 });
}

/** A mapping problem in the user's language; the required-target message names the target in that language too. */
export function problemText(t: Translate, problem: MappingProblem): string {
  if (problem.key === 'imports.messages.required') return t(problem.key, { label: t(`imports.targets.${problem.values?.target ?? 'name'}`) });
  if (problem.key === 'imports.messages.addressRequired') return t(problem.key, { types: [t('audience.addressTypes.email'), t('audience.addressTypes.phone')].join(', ') });
  return t(problem.key, problem.values);
}

/** Server texts of the import API and their locale keys. */
const IMPORT_MESSAGE_KEYS: Record<string, string> = {
  [IMPORT_MESSAGES.noRows]: 'imports.messages.noRows',
  [IMPORT_MESSAGES.tooLarge]: 'imports.messages.tooLarge',
  [IMPORT_MESSAGES.fileMissing]: 'imports.messages.fileMissing',
  [IMPORT_MESSAGES.alreadyStarted]: 'imports.messages.alreadyStarted',
  [IMPORT_MESSAGES.duplicateTarget]: 'imports.messages.duplicateTarget',
  [IMPORT_MESSAGES.duplicateMapping]: 'imports.messages.duplicateMapping',
  [IMPORT_MESSAGES.unknownField]: 'imports.messages.unknownField',
};

/** A server message of the import API in the user's language (else as sent). */
export function importMessageText(t: Translate, text: string): string {
  if (text === IMPORT_MESSAGES.addressRequired) return problemText(t, { text, key: 'imports.messages.addressRequired' });
  const required = /^Field '(.+)' is required$/.exec(text);
  if (required) return t('imports.messages.required', { label: required[1] === 'Name' ? t('imports.targets.name') : required[1] });
  const key = IMPORT_MESSAGE_KEYS[text];
  return key ? t(key) : text;
}
