import type { Field } from '@shared/contracts/field';
import type { MappingProblem } from './mapping';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** How a mapping choice reads: 'Name', 'Address: email', 'Field: Level', 'Ignore'... */
export function choiceLabel(t: Translate, choice: string, fields: Pick<Field, 'id' | 'name'>[]): string {
  const [kind, detail] = choice.split(':');
  if (kind === 'new-field') return t('imports.newField.choice');
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
  if (problem.key === 'imports.messages.addressRequired')
    return t(problem.key, { types: [t('audience.addressTypes.email'), t('audience.addressTypes.phone')].join(', ') });
  return t(problem.key, problem.values);
}
