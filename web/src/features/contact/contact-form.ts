import { ADDRESS_TYPES, type AddressType } from '@shared/address';
import type { AttributeValue, Contact, ContactAttribute, ContactInput } from '@shared/contracts/contact';
import type { Field } from '@shared/contracts/field';
import { isLanguage } from '@shared/languages';
import { MESSAGES } from '@shared/messages';
import type { FormValues } from '../../components/form/types';
import { submitAddressErrors } from './address-rules';

/** An address as the form edits it: a stable key (React, dragging), the server id of an existing one, type, value. */
export interface AddressDraft {
  key: string;
  id?: number;
  type: AddressType | '';
  value: string;
}

/**
 * An attribute as its input holds it: number -> number, text -> string, select -> option id as text,
 * multiselect -> option ids as text, boolean -> boolean; null (or '' / []) when empty.
 */
export type AttributeDraft = number | string | boolean | string[] | null;

let draftCounter = 0;

/** A new address row (e-mail unless told otherwise) with a key no other row has. */
export function newAddressDraft(type: AddressType = ADDRESS_TYPES[0], value = ''): AddressDraft {
  draftCounter += 1;
  return { key: `new-${draftCounter}`, type, value };
}

/** A stored attribute value as its input holds it. */
export function attributeDraft(field: Pick<Field, 'type'>, value: ContactAttribute['value'] | undefined): AttributeDraft {
  if (value === undefined || value === null) return field.type === 'multiselect' ? [] : null;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? value : Number.isFinite(Number(value)) ? Number(value) : null;
    case 'text':
      return typeof value === 'string' ? value : String(value);
    case 'boolean':
      return Boolean(value);
    case 'select':
      return value && typeof value === 'object' && !Array.isArray(value) ? String(value.option_id) : null;
    case 'multiselect':
      return Array.isArray(value) ? value.map((option) => String(option.option_id)) : [];
  }
}

/** What the API takes for an attribute input (spec 3: select -> { option_id }, multiselect -> a list of them); null clears it. */
export function attributeValue(field: Pick<Field, 'type'>, draft: AttributeDraft | undefined): AttributeValue {
  if (draft === undefined || draft === null) return null;
  switch (field.type) {
    case 'number': {
      if (draft === '') return null;
      const number = typeof draft === 'number' ? draft : Number(draft);
      return Number.isFinite(number) ? number : null;
    }
    case 'text': {
      const text = String(draft).trim();
      return text ? text : null;
    }
    case 'boolean':
      return typeof draft === 'boolean' ? draft : null;
    case 'select':
      return typeof draft === 'string' && draft ? { option_id: Number(draft) } : null;
    case 'multiselect':
      return Array.isArray(draft) && draft.length ? draft.map((id) => ({ option_id: Number(id) })) : null;
  }
}

/** The form's starting values: the contact's, or a new contact with one empty e-mail address. */
export function contactFormValues(contact: Contact | null, fields: Field[]): FormValues {
  const stored = new Map((contact?.attributes ?? []).map((attribute) => [attribute.field_id, attribute.value]));
  const attributes: Record<string, AttributeDraft> = {};
  for (const field of fields) attributes[String(field.id)] = attributeDraft(field, stored.get(field.id));
  return {
    name: contact?.name ?? '',
    language: contact?.language ?? '',
    note: contact?.note ?? '',
    addresses: contact
      ? contact.addresses.map((address): AddressDraft => ({ key: `id-${address.id}`, id: address.id, type: address.type, value: address.value }))
      : [newAddressDraft()],
    tags: (contact?.tags ?? []).map((tag) => String(tag.id)),
    attributes,
  };
}

/**
 * The request body of a contact save (spec 7: name, note, addresses, tags, attributes [{field_id, value}]).
 * Addresses keep their order and, when they exist, their id (so the server keeps their type); every field of
 * the organisation is sent, in field order, with null when empty, so `attributes.<i>` is the i-th field.
 */
export function contactPayload(values: FormValues, fields: Field[]): ContactInput {
  const addresses = (Array.isArray(values.addresses) ? (values.addresses as AddressDraft[]) : []).map((draft) => ({
    ...(draft.id ? { id: draft.id } : {}),
    type: draft.type as AddressType,
    value: draft.value,
  }));
  const drafts = (values.attributes ?? {}) as Record<string, AttributeDraft>;
  const note = String(values.note ?? '');
  return {
    name: String(values.name ?? ''),
    language: isLanguage(values.language) ? values.language : null,
    note: note.trim() ? note : null,
    addresses,
    tags: (Array.isArray(values.tags) ? (values.tags as string[]) : []).map(Number),
    attributes: fields.map((field) => ({ field_id: field.id, value: attributeValue(field, drafts[String(field.id)]) })),
  } as ContactInput;
}

/** Browser checks before saving (spec 5): a name, at least one address, each with a type and a value in its format. */
export function validateContact(values: FormValues): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (!String(values.name ?? '').trim()) problems.name = [MESSAGES.required];
  const addresses = Array.isArray(values.addresses) ? (values.addresses as AddressDraft[]) : [];
  if (addresses.length === 0) problems.addresses = [MESSAGES.requiredList];
  addresses.forEach((address, index) => {
    const found = submitAddressErrors(address.type, address.value);
    if (found.type) problems[`addresses.${index}.type`] = [found.type];
    if (found.value) problems[`addresses.${index}.value`] = [found.value];
  });
  return problems;
}
