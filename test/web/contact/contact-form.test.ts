import { ADDRESS_MESSAGES } from '@shared/address';
import { contactInputSchema } from '@shared/contracts/contact';
import { MESSAGES } from '@shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  attributeDraft,
  attributeValue,
  contactFormValues,
  contactPayload,
  newAddressDraft,
  validateContact,
} from '../../../web/src/features/contact/contact-form';
import { liveAddressError } from '../../../web/src/features/contact/address-rules';
import type { fakeApi } from '../fake-api';
import { json } from '../helpers';
import { renderApp } from '../render-app';
import { CONTACT, fakeAudienceApi, FIELDS } from '../fake-audience-api';

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });

describe('address rules in the contact form', () => {
  it('checks values live in the format of their type (shared rules), not while empty', () => {
    expect(liveAddressError('email', 'ann@')).toBe(MESSAGES.invalidEmail);
    expect(MESSAGES.invalidEmail).toBe('Invalid email address. Please enter a valid email');
    expect(liveAddressError('email', 'ann@x.io')).toBeNull();
    expect(liveAddressError('phone', '15550001')).toBe(ADDRESS_MESSAGES.invalidPhone);
    expect(liveAddressError('phone', '+1555-0001')).toBe(ADDRESS_MESSAGES.invalidPhone);
    expect(liveAddressError('phone', '+15550001')).toBeNull();
    expect(liveAddressError('email', '')).toBeNull();
  });

  it('on submit: name, at least one address, each with a type and a valid value, on the nested paths', () => {
    expect(validateContact({ name: ' ', addresses: [] })).toEqual({ name: [MESSAGES.required], addresses: [MESSAGES.requiredList] });
    const problems = validateContact({
      name: 'Ann',
      addresses: [newAddressDraft('email', 'ann@x.io'), newAddressDraft('phone', '555'), { key: 'k', type: '', value: 'x' }, newAddressDraft('email', '')],
    });
    expect(problems).toEqual({
      'addresses.1.value': [ADDRESS_MESSAGES.invalidPhone],
      'addresses.2.type': [MESSAGES.required],
      'addresses.3.value': [MESSAGES.required],
    });
  });
});

describe('contact payload', () => {
  it('sends the language chosen (one of the eight) and null when none is', () => {
    const values = contactFormValues({ ...CONTACT, language: 'ro' }, FIELDS);
    expect(values.language).toBe('ro');
    expect(contactPayload(values, FIELDS).language).toBe('ro');
    expect(contactPayload({ ...values, language: '' }, FIELDS).language).toBeNull();
    expect(contactInputSchema.safeParse({ ...contactPayload(values, FIELDS), language: 'xx' }).success).toBe(false);
  });

  it('keeps address order and ids, tags as ids, and every field typed in field order (null when empty)', () => {
    const values = contactFormValues(CONTACT, FIELDS);
    const body = contactPayload(values, FIELDS);
    expect(body).toEqual({
      name: 'Ann',
      language: null,
      note: null,
      addresses: [
        { id: 91, type: 'email', value: 'ann@x.io' },
        { id: 92, type: 'phone', value: '+15550001' },
      ],
      tags: [1],
      attributes: [
        { field_id: 1, value: 42 },
        { field_id: 2, value: null },
        { field_id: 3, value: { option_id: 32 } },
        { field_id: 4, value: [{ option_id: 41 }] },
        { field_id: 5, value: true },
      ],
    });
    expect(contactInputSchema.safeParse(body).success).toBe(true);
  });

  it('turns each input value into the API value of its field type', () => {
    const type = (t: string) => ({ type: t as never });
    expect(attributeValue(type('number'), 3.5)).toBe(3.5);
    expect(attributeValue(type('number'), null)).toBeNull();
    expect(attributeValue(type('text'), '  gold ')).toBe('gold');
    expect(attributeValue(type('text'), '   ')).toBeNull();
    expect(attributeValue(type('select'), '31')).toEqual({ option_id: 31 });
    expect(attributeValue(type('multiselect'), ['41', '42'])).toEqual([{ option_id: 41 }, { option_id: 42 }]);
    expect(attributeValue(type('multiselect'), [])).toBeNull();
    expect(attributeValue(type('boolean'), false)).toBe(false);
    expect(attributeDraft(type('multiselect'), undefined)).toEqual([]);
    expect(attributeDraft(type('select'), { option_id: 7 })).toBe('7');
  });
});

describe('contact form screen', () => {
  it('shows live address errors, puts 422 messages on the right nested inputs and clears them on edit', async () => {
    let posted: unknown = null;
    const api = fakeAudienceApi({
      fields: FIELDS,
      answer: (call) => {
        if (call.method !== 'POST' || !call.url.endsWith('/api/v1/contact')) return null;
        posted = call.body;
        return json(422, {
          error: {
            code: 'validation_failed',
            message: MESSAGES.invalidForm,
            fields: { 'addresses.1.value': [MESSAGES.duplicate], 'attributes.0.value': ['Must be a number'] },
          },
        });
      },
    });
    renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/contact/create', signedIn: true });
    fireEvent.change(await find('form-field-name'), { target: { value: 'Ann' } });
    expect(await find('attribute-age')).toBeTruthy();

    // One empty e-mail row to start with; a wrong value is flagged while typing.
    const firstValue = (await screen.findAllByTestId('address-value'))[0];
    fireEvent.change(firstValue, { target: { value: 'ann@' } });
    expect(await screen.findByText('Invalid email address. Please enter a valid email')).toBeTruthy();
    fireEvent.change(firstValue, { target: { value: 'ann@x.io' } });
    await waitFor(() => expect(screen.queryByText('Invalid email address. Please enter a valid email')).toBeNull());

    // A second address, a phone: '+' and digits only.
    fireEvent.click(await find('address-add'));
    const rows = await screen.findAllByTestId('address-row');
    expect(rows).toHaveLength(2);
    fireEvent.change(within(rows[1]).getByTestId('address-type'), { target: { value: 'phone' } });
    fireEvent.change(within(rows[1]).getByTestId('address-value'), { target: { value: '555-1' } });
    expect(await screen.findByText("Invalid phone number. It must start with '+' and contain only digits")).toBeTruthy();
    fireEvent.change(within(rows[1]).getByTestId('address-value'), { target: { value: '+15550001' } });

    fireEvent.click(await find('form-submit'));
    expect((await find('form-error')).textContent).toContain('Some fields are filled incorrectly');
    expect(posted).toMatchObject({
      name: 'Ann',
      addresses: [
        { type: 'email', value: 'ann@x.io' },
        { type: 'phone', value: '+15550001' },
      ],
    });
    // The duplicate message sits under the second address, the attribute message under the first field.
    await waitFor(() => expect(within(screen.getAllByTestId('address-row')[1]).queryByText(MESSAGES.duplicate)).not.toBeNull());
    expect(within(screen.getAllByTestId('address-row')[0]).queryByText(MESSAGES.duplicate)).toBeNull();
    expect(screen.getByText('Must be a number')).toBeTruthy();

    // Editing that address clears its message only.
    fireEvent.change(within(screen.getAllByTestId('address-row')[1]).getByTestId('address-value'), { target: { value: '+15550002' } });
    await waitFor(() => expect(screen.queryByText(MESSAGES.duplicate)).toBeNull());
    expect(screen.getByText('Must be a number')).toBeTruthy();
  });

  it('opens a contact with its values and locks the type of its saved addresses', async () => {
    const api = fakeAudienceApi({ fields: FIELDS, contacts: [CONTACT] });
    renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/contact/update/9', signedIn: true });
    expect(((await find('form-field-name')) as HTMLInputElement).value).toBe('Ann');
    const types = (await screen.findAllByTestId('address-type')) as HTMLSelectElement[];
    expect(types.map((select) => [select.value, select.disabled])).toEqual([
      ['email', true],
      ['phone', true],
    ]);
    expect(((await find('attribute-age')) as HTMLInputElement).value).toBe('42');
    fireEvent.click(await find('address-add'));
    const added = (await screen.findAllByTestId('address-type')) as HTMLSelectElement[];
    expect(added[2].disabled).toBe(false);
  });
});

describe('the contact list', () => {
  it('marks a blacklisted address', async () => {
    renderApp(fakeAudienceApi({ contacts: [CONTACT] }) as unknown as ReturnType<typeof fakeApi>, { path: '/contact', signedIn: true });
    const mark = await screen.findByTestId('address-blacklisted', undefined, { timeout: 3000 });
    expect(mark.textContent).toBe('Blacklisted');
    const phone = screen.getByText('+15550001');
    expect(phone.style.textDecoration).toBe('line-through');
    expect(screen.getByText('ann@x.io').style.textDecoration).toBe('');
  });
});
