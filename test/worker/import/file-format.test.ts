import { describe, expect, it } from 'vitest';
import type { ImportMappingEntry } from '../../../src/shared/contracts/import';
import { CSV_ERRORS } from '../../../src/shared/csv-scanner';
import { createField, getImport, importCsv, newOrg, startImport, storedContacts, upload } from './support';

// The file format of an import (issue 35, finding 2): the delimiter and the encoding the console detected or
// the user chose travel with POST /import and the worker's scanner reads the file with them, end to end
// through the upload, the real queue consumer and D1. Without them an import reads comma-separated UTF-8.

const nameEmailNote: ImportMappingEntry[] = [
  { column: 0, target: 'name' },
  { column: 1, target: 'address', address_type: 'email' },
  { column: 2, target: 'note' },
];

async function fieldsOf422(res: Response) {
  expect(res.status).toBe(422);
  return ((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields;
}

describe('an import with a chosen delimiter and encoding', () => {
  it('reads a semicolon file (German and French Excel) into its columns', async () => {
    const org = await newOrg();
    const csv = 'Name;E-Mail;Notiz\r\nMüller, Anna;anna@x.io;"sagt; ""hallo"""\r\nBen;ben@x.io;1,5 kg\r\n';
    const result = await importCsv(org, csv, { skip_first_line: true, delimiter: 'semicolon', mapping: nameEmailNote });
    expect(result).toMatchObject({ status: 'success', created_count: 2, rejected_count: 0, delimiter: 'semicolon', encoding: 'utf-8' });
    expect((await storedContacts(org.orgId)).map((c) => [c.name, c.addresses, c.note])).toEqual([
      ['Müller, Anna', ['email:anna@x.io'], 'sagt; "hallo"'],
      ['Ben', ['email:ben@x.io'], '1,5 kg'],
    ]);
  });

  it('reads a tab file', async () => {
    const org = await newOrg();
    const result = await importCsv(org, 'name\temail\tnote\nAnn, Jr.\tann@x.io\ta;b,c\n', { skip_first_line: true, delimiter: 'tab', mapping: nameEmailNote });
    expect(result).toMatchObject({ status: 'success', created_count: 1, rejected_count: 0, delimiter: 'tab' });
    expect((await storedContacts(org.orgId)).map((c) => [c.name, c.note])).toEqual([['Ann, Jr.', 'a;b,c']]);
  });

  it('reads Windows-1252 bytes 0x80-0x9F as € „ “ ” ’ into a field value', async () => {
    const org = await newOrg();
    const motto = await createField(org.orgId, 'Motto', 'text');
    const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));
    // "Zoë;zoe@x.io;€ „quoted“ ”it’s" in Windows-1252, as Excel on Western European Windows saves it.
    const bytes = new Uint8Array([
      ...ascii('name;email;motto\r\n'),
      ...ascii('Zo'),
      0xeb,
      ...ascii(';zoe@x.io;'),
      0x80,
      0x20,
      0x84,
      ...ascii('quoted'),
      0x93,
      0x20,
      0x94,
      ...ascii('it'),
      0x92,
      ...ascii('s\r\n'),
    ]);
    const result = await importCsv(org, bytes, {
      skip_first_line: true,
      delimiter: 'semicolon',
      encoding: 'windows-1252',
      mapping: [...nameEmailNote.slice(0, 2), { column: 2, target: 'field', field_id: motto }],
    });
    expect(result).toMatchObject({ status: 'success', created_count: 1, rejected_count: 0, encoding: 'windows-1252' });
    expect((await storedContacts(org.orgId)).map((c) => [c.name, c.attributes.Motto])).toEqual([['Zoë', ['€ „quoted“ ”it’s']]]);
  });

  it('reports a broken quote with its row in the result and imports the rows around it', async () => {
    const org = await newOrg();
    const csv = 'name;email;note\nAnn;ann@x.io;fine\n"Bob;bob@x.io;never closed\nCy;cy@x.io;"ok"\n';
    const result = await importCsv(org, csv, { skip_first_line: true, delimiter: 'semicolon', mapping: nameEmailNote });
    expect(result).toMatchObject({ status: 'success', created_count: 2, rejected_count: 1 });
    expect(result.rejections).toEqual([{ row: 3, reason: CSV_ERRORS.textAfterQuote }]);
    expect((await storedContacts(org.orgId)).map((c) => c.name)).toEqual(['Ann', 'Cy']);
  });

  it('reads comma-separated UTF-8 when the import does not say (as before), so a semicolon file is one column', async () => {
    const org = await newOrg();
    const key = await upload(org, 'name;email\nAnn;ann@x.io\n');
    const res = await startImport(org, {
      file_key: key,
      file_name: 'old.csv',
      mapping: [
        { column: 0, target: 'name' },
        { column: 1, target: 'address', address_type: 'email' },
      ],
    });
    expect(await fieldsOf422(res)).toEqual({ 'mapping.1.column': ['The file has 1 column (0 to 0)'] });
    const ok = await importCsv(org, 'name,email\nAnn,ann@x.io\n', { skip_first_line: true, mapping: nameEmailNote.slice(0, 2) });
    expect(await getImport(org, ok.id)).toMatchObject({ status: 'success', created_count: 1, delimiter: 'comma', encoding: 'utf-8' });
  });

  it('answers 422 with field messages for an unknown delimiter or encoding', async () => {
    const org = await newOrg();
    const key = await upload(org, 'name,email\nAnn,ann@x.io\n');
    const res = await startImport(org, {
      file_key: key,
      file_name: 'x.csv',
      delimiter: '|' as never,
      encoding: 'latin9' as never,
      mapping: nameEmailNote.slice(0, 2),
    });
    expect(await fieldsOf422(res)).toEqual({ delimiter: ['Choose one of: comma, semicolon, tab'], encoding: ['Choose one of: utf-8, windows-1252'] });
  });
});
