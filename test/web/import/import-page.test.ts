import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { fakeApi } from '../fake-api';
import { json } from '../helpers';
import { renderApp } from '../render-app';
import { fakeAudienceApi, FIELDS } from '../fake-audience-api';

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });

function renderImport() {
  const api = fakeAudienceApi({
    fields: FIELDS,
    answer: (call) =>
      call.method === 'GET' && new URL(call.url, 'http://x').pathname === '/api/v1/import'
        ? json(200, { items: [], meta: { total: 0, page: 1, page_size: 10, total_pages: 0 } })
        : null,
  });
  renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/contact/import', signedIn: true });
  return api;
}

async function choose(file: File) {
  fireEvent.change(await find('import-file'), { target: { files: [file] } });
}

describe('import wizard', () => {
  it('refuses a file over 100 MB without reading it', async () => {
    renderImport();
    const big = new File(['email\na@x.io\n'], 'big.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 100 * 1024 * 1024 + 1 });
    await choose(big);
    expect((await find('import-upload-error')).textContent).toBe('The file is larger than 100 MB. Split it into smaller files.');
    expect(screen.queryByTestId('import-preview')).toBeNull();
    expect((screen.getByTestId('import-next') as HTMLButtonElement).disabled).toBe(true);
  });

  it('says the file has no rows when only the skipped first line is there, and counts it once the box is unticked', async () => {
    renderImport();
    await choose(new File(['email,name\n'], 'header.csv', { type: 'text/csv' }));
    expect((await find('import-upload-error')).textContent).toBe('The file does not contain any rows for import.');
    expect((screen.getByTestId('import-next') as HTMLButtonElement).disabled).toBe(true);
    const skip = screen.getByTestId('import-skip-first-line') as HTMLInputElement;
    expect(skip.checked).toBe(true);
    fireEvent.click(skip);
    await waitFor(() => expect(screen.queryByTestId('import-upload-error')).toBeNull());
    expect(screen.getAllByTestId('import-preview-row')).toHaveLength(1);
    expect((screen.getByTestId('import-next') as HTMLButtonElement).disabled).toBe(false);
  });

  it('goes on to a mapping defaulted from the header names, and checks it before step 3', async () => {
    renderImport();
    await choose(new File(['Name,E-mail,Level,Shoe size\nAnn,ann@x.io,Gold,38\n'], 'people.csv', { type: 'text/csv' }));
    await waitFor(() => expect(screen.getAllByTestId('import-preview-row')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('import-next'));
    const targets = (await screen.findAllByTestId('mapping-target')) as HTMLSelectElement[];
    expect(targets.map((select) => select.value)).toEqual(['name', 'address:email', 'field:3', 'ignore']);

    fireEvent.change(targets[1], { target: { value: 'ignore' } });
    fireEvent.click(screen.getByTestId('import-next'));
    expect((await find('import-mapping-error')).textContent).toContain('At least one column must be mapped to an address type: Email, Phone');
    expect(screen.getByTestId('import-wizard').getAttribute('data-step')).toBe('2');

    fireEvent.change(targets[1], { target: { value: 'address:email' } });
    await waitFor(() => expect(screen.queryByTestId('import-mapping-error')).toBeNull());
    fireEvent.click(screen.getByTestId('import-next'));
    await waitFor(() => expect(screen.getByTestId('import-wizard').getAttribute('data-step')).toBe('3'));
    await waitFor(() => expect(screen.getByTestId('review-rows').textContent).toBe('1'));
  });
});
