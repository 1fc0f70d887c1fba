import type { ContactAttribute } from '@shared/contracts/contact';
import type { Field } from '@shared/contracts/field';
import type { MessageListItem } from '@shared/contracts/message';

// What the contact's read-only page works out from the API's answers: field values in words, and the contact's
// engagement over its latest messages (the subscriptions' standings are membership-standing.ts).

/** How many of the contact's latest messages the page reads (one page of the list, its largest). */
export const CONTACT_MESSAGES_READ = 100;
/** How many of them it lists. */
export const CONTACT_MESSAGES_SHOWN = 10;

/** One custom field's value as a person reads it: options by their names, a boolean as yes or no, else the value. */
export function attributeText(field: Field, value: ContactAttribute['value'], yesNo: { yes: string; no: string }): string {
  const optionName = (id: number) => field.options.find((option) => option.id === id)?.value ?? `#${id}`;
  if (Array.isArray(value)) return value.map((chosen) => optionName(chosen.option_id)).join(', ');
  if (typeof value === 'object' && value !== null) return optionName(value.option_id);
  if (typeof value === 'boolean') return value ? yesNo.yes : yesNo.no;
  return String(value);
}

/** The contact's field values in the fields' display order, named; values of fields that are gone are left out. */
export function namedAttributes(fields: Field[], attributes: ContactAttribute[]): { field: Field; value: ContactAttribute['value'] }[] {
  const byField = new Map(attributes.map((attribute) => [attribute.field_id, attribute.value]));
  return fields.flatMap((field) => (byField.has(field.id) ? [{ field, value: byField.get(field.id)! }] : []));
}

/** The contact's engagement over the messages read: each message counts once; people are hits judged human. */
export interface ContactEngagement {
  messages: number;
  opened: number;
  openedByPeople: number;
  clicked: number;
  clickedByPeople: number;
}

/**
 * Counts the messages opened and clicked (by anyone, and by a person) among the contact's messages read. Opened by a
 * person is the broadcast's rule: a person's first hit of any kind (a click counts as an open), not image loads alone.
 */
export function contactEngagement(messages: Pick<MessageListItem, 'opens_unique' | 'clicks_unique' | 'human_opened_at' | 'human_clicks'>[]): ContactEngagement {
  return {
    messages: messages.length,
    opened: messages.filter((m) => m.opens_unique > 0).length,
    openedByPeople: messages.filter((m) => m.human_opened_at !== null).length,
    clicked: messages.filter((m) => m.clicks_unique > 0).length,
    clickedByPeople: messages.filter((m) => m.human_clicks > 0).length,
  };
}
