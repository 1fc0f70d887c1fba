import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { fakeApi } from '../fake-api';
import { json } from '../helpers';
import { renderApp } from '../render-app';
import { fakeAudienceApi, FIELDS } from '../fake-audience-api';
import { UploadXhr } from './upload-xhr';

// The upload step reads a file as the import will (issue 35, finding 2): the delimiter and encoding are detected
// and can be changed, the preview follows them, and the rows the import cannot read are listed with their row
// before the mapping step, in the user's language.

// The console's route modules load (and are transformed) once, here, rather than inside the first test's time.
beforeAll(async () => {
  await import('../../../web/src/features/import/ImportPage');
});

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderImport() {
  const api = fakeAudienceApi({
    fields: FIELDS,
    answer: (call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (call.method === 'GET' && path === '/api/v1/import') return json(200, { items: [], meta: { total: 0, page: 1, page_size: 10, total_pages: 0 } });
      if (call.method === 'POST' && path === '/api/v1/import') {
        const now = '2026-11-27T10:00:00.000Z';
        const body = call.body as Record<string, unknown>;
        const created = { id: 7, status: 'new', file_size: 24, tag_ids: [], created_count: 0, updated_count: 0, rejected_count: 0, rejections: null };
        return json(201, {
          data: { ...created, ...body, processed_bytes: 0, processed_rows: 0, error: null, created_at: now, updated_at: now, finished_at: null },
        });
      }
      return null;
    },
  });
  const view = renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/contact/import', signedIn: true });
  return { api, services: view.services };
}

async function choose(file: File) {
  fireEvent.change(await find('import-file'), { target: { files: [file] } });
}

const cells = () => screen.getAllByTestId('import-preview-row').map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
const select = (id: string) => screen.getByTestId(id) as HTMLSelectElement;

/** Windows-1252 bytes of ASCII text with é ë and the 0x80-0x9F characters € „ “ ” ’. */
const cp1252 = (text: string) => {
  const high: Record<string, number> = { '€': 0x80, '„': 0x84, '“': 0x93, '”': 0x94, '’': 0x92, é: 0xe9, ë: 0xeb };
  return new Uint8Array([...text].map((ch) => high[ch] ?? ch.charCodeAt(0)));
};

describe('the upload step reads the file as the import will', () => {
  it('detects a semicolon file in Windows-1252 (German Excel), shows it, and re-reads when the user changes it', async () => {
    renderImport();
    await choose(new File([cp1252('Name;E-Mail;Motto\r\nZoë;zoe@x.io;€ „hi“ it’s\r\n')], 'excel.csv', { type: 'text/csv' }));
    await waitFor(() => expect(cells()).toEqual([['Zoë', 'zoe@x.io', '€ „hi“ it’s']]));
    expect(select('import-delimiter').value).toBe('semicolon');
    expect(select('import-encoding').value).toBe('windows-1252');

    fireEvent.change(select('import-delimiter'), { target: { value: 'comma' } });
    await waitFor(() => expect(cells()).toEqual([['Zoë;zoe@x.io;€ „hi“ it’s']]));
    fireEvent.change(select('import-delimiter'), { target: { value: 'semicolon' } });
    fireEvent.change(select('import-encoding'), { target: { value: 'utf-8' } });
    // Read as UTF-8 the row is not text: the import would reject it, and the preview says so.
    expect((await find('import-parse-errors')).textContent).toContain('Row 2: The row is not valid UTF-8 text (choose the encoding Windows-1252');
  });

  it('passes the chosen delimiter and encoding with the import and shows them in the review', async () => {
    vi.stubGlobal('XMLHttpRequest', UploadXhr);
    const { api } = renderImport();
    await choose(new File(['Name\tE-mail\nAnn\tann@x.io\n'], 'tabs.tsv', { type: 'text/csv' }));
    await waitFor(() => expect(cells()).toEqual([['Ann', 'ann@x.io']]));
    expect(select('import-delimiter').value).toBe('tab');
    fireEvent.click(screen.getByTestId('import-next'));
    expect(((await screen.findAllByTestId('mapping-target')) as HTMLSelectElement[]).map((s) => s.value)).toEqual(['name', 'address:email']);
    fireEvent.click(screen.getByTestId('import-next'));
    expect((await find('review-format')).textContent).toBe('Tab · UTF-8 (with or without BOM)');
    await waitFor(() => expect(screen.getByTestId('review-rows').textContent).toBe('1'));
    fireEvent.click(screen.getByTestId('import-start'));
    await find('import-started');
    const start = api.calls.find((call) => call.method === 'POST' && new URL(call.url, 'http://x').pathname === '/api/v1/import');
    expect(start?.body).toMatchObject({ file_key: 'orgs/1/imports/k.csv', delimiter: 'tab', encoding: 'utf-8', skip_first_line: true });
  });

  it('lists the rows with a broken quote before the mapping step, with their row, in English and German', async () => {
    const { services } = renderImport();
    await choose(new File(['name,email\nAnn,ann@x.io\n"Bob,bob@x.io\n"Cy"x,cy@x.io\nDee,dee@x.io\n'], 'broken.csv', { type: 'text/csv' }));
    const problems = await find('import-parse-errors');
    expect(screen.getAllByTestId('import-parse-error').map((line) => line.textContent)).toEqual([
      'Row 3: Text after a closing quote (a quote inside a quoted value must be doubled: "")',
      'Row 4: Text after a closing quote (a quote inside a quoted value must be doubled: "")',
    ]);
    expect(problems.textContent).toContain('Rows the import will reject');
    expect(cells()).toEqual([
      ['Ann', 'ann@x.io'],
      ['Dee', 'dee@x.io'],
    ]);
    fireEvent.change(screen.getByTestId('language-switcher'), { target: { value: 'de' } });
    await waitFor(() => expect(services.i18n.language).toBe('de'));
    await waitFor(() =>
      expect(screen.getAllByTestId('import-parse-error').map((line) => line.textContent)).toEqual([
        'Zeile 3: Text nach einem schließenden Anführungszeichen (ein Anführungszeichen in einem Wert in Anführungszeichen muss verdoppelt werden: "")',
        'Zeile 4: Text nach einem schließenden Anführungszeichen (ein Anführungszeichen in einem Wert in Anführungszeichen muss verdoppelt werden: "")',
      ]),
    );
    // The rows that can be read still go on to the mapping.
    expect((screen.getByTestId('import-next') as HTMLButtonElement).disabled).toBe(false);
  });
});
