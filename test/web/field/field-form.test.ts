import type { Field } from '@shared/contracts/field';
import { fieldInputSchema, fieldUpdateSchema } from '@shared/contracts/field';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { fakeApi } from '../fake-api';
import { json } from '../helpers';
import { renderApp } from '../render-app';
import { fakeAudienceApi, FIELDS } from '../fake-audience-api';
import { aliasFromName, fieldFormValues, fieldPayload, newOptionDraft } from '../../../web/src/features/field/field-form';

const options = [newOptionDraft('Gold'), newOptionDraft('Silver')];

describe('field payload (spec 5: options only for select and multiselect, dropped otherwise)', () => {
  it.each(['number', 'text', 'boolean'])('drops the options of a %s field', (type) => {
    const body = fieldPayload({ name: 'Level', alias: 'level', type, options }, 'create');
    expect(body).toEqual({ name: 'Level', alias: 'level', type });
    expect(fieldInputSchema.safeParse(body).success).toBe(true);
  });

  it.each(['select', 'multiselect'])('keeps the options of a %s field, without ids on create', (type) => {
    const body = fieldPayload({ name: 'Level', alias: 'level', type, options }, 'create');
    expect(body).toEqual({ name: 'Level', alias: 'level', type, options: [{ value: 'Gold' }, { value: 'Silver' }] });
    expect(fieldInputSchema.safeParse(body).success).toBe(true);
  });

  it('on update sends no type, keeps existing option ids (renames) and adds new ones without', () => {
    const field: Field = {
      id: 4,
      name: 'Level',
      alias: 'level',
      type: 'select',
      priority: 1,
      options: [
        { id: 11, value: 'Gold' },
        { id: 12, value: 'Silver' },
      ],
      created_at: '',
      updated_at: '',
    };
    const values = fieldFormValues(field);
    const drafts = values.options as ReturnType<typeof newOptionDraft>[];
    values.options = [{ ...drafts[1], value: 'Platinum' }, newOptionDraft('Bronze')];
    const body = fieldPayload(values, 'update');
    expect(body).toEqual({ name: 'Level', alias: 'level', options: [{ id: 12, value: 'Platinum' }, { value: 'Bronze' }] });
    expect(fieldUpdateSchema.safeParse(body).success).toBe(true);
  });

  it('derives an alias from the name on create when none is typed', () => {
    expect(fieldPayload({ name: 'Loyalty Level', alias: '', type: 'text', options: [] }, 'create')).toMatchObject({ alias: 'loyalty_level' });
    expect(aliasFromName('2nd Phone #')).toBe('f_2nd_phone');
    expect(aliasFromName('Città')).toBe('citta');
    expect(fieldPayload({ name: 'Level', alias: '', type: 'text' }, 'update')).toMatchObject({ alias: '' });
  });
});

describe('field form screen', () => {
  it('shows the options editor only for select types and sends no options for others', async () => {
    const api = fakeAudienceApi();
    renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/field/create', signedIn: true });
    fireEvent.change(await find('form-field-name'), { target: { value: 'Level' } });
    expect(screen.queryByTestId('form-field-options')).toBeNull();

    await chooseType('Select');
    fireEvent.click(await find('option-add'));
    fireEvent.click(await find('option-add'));
    const inputs = await screen.findAllByTestId('option-value');
    fireEvent.change(inputs[0], { target: { value: 'Gold' } });
    fireEvent.change(inputs[1], { target: { value: 'Silver' } });
    fireEvent.click(screen.getAllByTestId('option-remove')[0]);
    expect((screen.getAllByTestId('option-value') as HTMLInputElement[]).map((input) => input.value)).toEqual(['Silver']);

    await chooseType('Number');
    expect(screen.queryByTestId('form-field-options')).toBeNull();
    fireEvent.click(await find('form-submit'));
    await waitFor(() => expect(api.calls.some((call) => call.method === 'POST' && call.url.endsWith('/api/v1/field'))).toBe(true));
    const post = api.calls.find((call) => call.method === 'POST' && call.url.endsWith('/api/v1/field'))!;
    expect(post.body).toEqual({ name: 'Level', alias: 'level', type: 'number' });
  });

  it('disables the type when a field is open', async () => {
    const api = fakeAudienceApi({
      answer: (call) => (call.url.endsWith('/api/v1/field/3') ? json(200, { data: FIELDS[2] }) : null),
    });
    renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/field/update/3', signedIn: true });
    expect(((await find('form-field-type')) as HTMLInputElement).disabled).toBe(true);
    expect((await screen.findAllByTestId('option-value')).map((input) => (input as HTMLInputElement).value)).toEqual(['Gold', 'Silver']);
  });
});

/** Picks a field type in the Mantine select (opens it, clicks the option). */
async function chooseType(label: string) {
  fireEvent.click(await find('form-field-type'));
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll('[role="option"]')].find((element) => element.textContent === label);
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  fireEvent.click(option);
}

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
