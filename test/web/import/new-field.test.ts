import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { fakeApi } from '../fake-api';
import { json, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';
import { fakeAudienceApi, FIELDS } from '../fake-audience-api';

// "Create field from this column" in the import's mapping step (issue 35, finding 6): a column no field matches
// can become a new custom field (name from the header, a type), made through POST /field, and is then mapped to it.

// The console's route modules load (and are transformed) once, here, rather than inside the first test's time.
beforeAll(async () => {
  await import('../../../web/src/features/import/ImportPage');
});

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });

function renderImport(answerField?: (call: FetchCall) => Response | null) {
  const api = fakeAudienceApi({
    fields: FIELDS,
    answer: (call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (call.method === 'GET' && path === '/api/v1/import') return json(200, { items: [], meta: { total: 0, page: 1, page_size: 10, total_pages: 0 } });
      if (call.method === 'POST' && path === '/api/v1/field') return answerField?.(call) ?? null;
      return null;
    },
  });
  renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/contact/import', signedIn: true });
  return api;
}

/** Chooses a file with an unmatched "Shoe size" column, goes to the mapping and picks "Create field from this column" for it. */
async function toNewField() {
  fireEvent.change(await find('import-file'), {
    target: { files: [new File(['Name,E-mail,Shoe size\nAnn,ann@x.io,38\n'], 'people.csv', { type: 'text/csv' })] },
  });
  await waitFor(() => expect(screen.getAllByTestId('import-preview-row')).toHaveLength(1));
  fireEvent.click(screen.getByTestId('import-next'));
  const targets = (await screen.findAllByTestId('mapping-target')) as HTMLSelectElement[];
  expect(targets.map((select) => select.value)).toEqual(['name', 'address:email', 'ignore']);
  expect([...targets[2].options].map((option) => option.textContent)).toContain('Create field from this column');
  fireEvent.change(targets[2], { target: { value: 'new-field' } });
  await find('new-field-form');
  return targets;
}

const fieldPosts = (api: ReturnType<typeof renderImport>) =>
  api.calls.filter((call) => call.method === 'POST' && new URL(call.url, 'http://x').pathname === '/api/v1/field');

describe('create a field from a column in the mapping step', () => {
  it('makes the field with the header as its name and the chosen type, then maps the column to it', async () => {
    const api = renderImport();
    const targets = await toNewField();
    expect((screen.getByTestId('new-field-name') as HTMLInputElement).value).toBe('Shoe size');
    fireEvent.change(screen.getByTestId('new-field-type'), { target: { value: 'number' } });
    fireEvent.click(screen.getByTestId('new-field-create'));
    await waitFor(() => expect(targets[2].value).toBe('field:50'));
    expect(fieldPosts(api).map((call) => call.body)).toEqual([{ name: 'Shoe size', alias: 'shoe_size', type: 'number' }]);
    expect(screen.queryByTestId('new-field-form')).toBeNull();
    expect(targets[2].selectedOptions[0].textContent).toBe('Field: Shoe size');
  });

  it('does not go on while a field is half made, and refuses the name of a field that exists', async () => {
    const api = renderImport();
    const targets = await toNewField();
    fireEvent.click(screen.getByTestId('import-next'));
    await waitFor(() => expect(screen.getByText('Create the field or choose another target.')).toBeTruthy());
    expect(screen.getByTestId('import-wizard').getAttribute('data-step')).toBe('2');

    fireEvent.change(screen.getByTestId('new-field-name'), { target: { value: 'city' } });
    fireEvent.click(screen.getByTestId('new-field-create'));
    expect(await screen.findByText('A field with this name already exists: choose it in the list.')).toBeTruthy();
    expect(fieldPosts(api)).toHaveLength(0);
    expect(targets[2].value).toBe('new-field');
  });

  it("shows the server's refusal as the form's field errors", async () => {
    const api = renderImport(() =>
      json(422, { error: { code: 'validation_failed', message: 'The form has errors', fields: { alias: ['Value already exists, use a different one.'] } } }),
    );
    const targets = await toNewField();
    fireEvent.click(screen.getByTestId('new-field-create'));
    expect(await screen.findByText('Value already exists, use a different one.')).toBeTruthy();
    expect(fieldPosts(api)).toHaveLength(1);
    expect(targets[2].value).toBe('new-field');
  });
});
