import { IMPORT_MESSAGES } from '@shared/contracts/import';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../web/src/app/i18n';
import { LOCALES } from '../all-locales';
import { problemText } from '../../../web/src/features/import/import-labels';
import {
  checkMapping,
  choiceFromHeader,
  defaultMapping,
  mappingIsValid,
  mappingPayload,
  newMappingDraft,
  type MappingDraft,
} from '../../../web/src/features/import/mapping';

const FIELDS = [
  { id: 7, name: 'Loyalty level', alias: 'level' },
  { id: 9, name: 'Age', alias: 'age' },
];
const choices = (drafts: MappingDraft[]) => drafts.map((draft) => `${draft.column}=${draft.choice}`);
const drafts = (...pairs: [number, string][]) => pairs.map(([column, choice]) => newMappingDraft(column, choice));

describe('default mapping from header names', () => {
  it('maps matching headers (any case, punctuation or language) and ignores the rest', () => {
    const headers = ['E-Mail', 'Full name', 'Mobile', 'Notes', 'Tags', 'level', 'Loyalty Level', 'Favourite colour', 'Телефон'];
    expect(choices(defaultMapping(headers, headers.length, FIELDS, []))).toEqual([
      '0=address:email',
      '1=name',
      '2=address:phone',
      '3=note',
      '4=tags',
      '5=field:7',
      // The same field twice: only the first column gets it.
      '6=ignore',
      '7=ignore',
      '8=address:phone',
    ]);
  });

  it('without a header, recognises columns of e-mails or phone numbers by their values', () => {
    const samples = [
      ['ann@x.io', '+15550001', 'Ann'],
      ['bob@x.io', '', 'Bob'],
    ];
    expect(choices(defaultMapping(null, 3, FIELDS, samples))).toEqual(['0=address:email', '1=address:phone', '2=ignore']);
  });

  it('prefers a field whose name or alias matches over a synonym', () => {
    expect(choiceFromHeader('Age', FIELDS)).toBe('field:9');
    expect(choiceFromHeader('Something else', FIELDS)).toBeNull();
  });
});

describe('mapping validation', () => {
  const en = createI18n('en');
  const de = createI18n('de', LOCALES);

  it('needs at least one e-mail or phone column, naming the address types', () => {
    const check = checkMapping(drafts([0, 'name'], [1, 'note']), FIELDS);
    expect(mappingIsValid(check)).toBe(false);
    expect(check.general.map((p) => p.text)).toEqual([IMPORT_MESSAGES.addressRequired]);
    expect(IMPORT_MESSAGES.addressRequired).toContain('email, phone');
    expect(problemText(en.t, check.general[0])).toBe('At least one column must be mapped to an address type: Email, Phone');
    expect(problemText(de.t, check.general[0])).toBe('Mindestens eine Spalte muss einem Adresstyp zugeordnet sein: E-Mail, Telefon');
  });

  it("says Field '{label}' is required for a required target that is not mapped", () => {
    const check = checkMapping(drafts([0, 'address:email'], [1, 'ignore']), FIELDS);
    expect(check.general.map((p) => p.text)).toEqual(["Field 'Name' is required"]);
    expect(problemText(en.t, check.general[0])).toBe("Field 'Name' is required");
    expect(problemText(de.t, check.general[0])).toBe('Feld „Name“ ist erforderlich');
  });

  it('accepts a column used twice (address and name) and flags targets mapped twice', () => {
    expect(mappingIsValid(checkMapping(drafts([0, 'address:email'], [0, 'name']), FIELDS))).toBe(true);
    const twice = checkMapping(drafts([0, 'address:email'], [1, 'name'], [2, 'name'], [3, 'field:7'], [4, 'field:7'], [0, 'address:email']), FIELDS);
    expect(twice.general).toEqual([]);
    expect(Object.fromEntries(Object.entries(twice.rows).map(([i, p]) => [i, p.text]))).toEqual({
      2: IMPORT_MESSAGES.duplicateTarget,
      4: IMPORT_MESSAGES.duplicateTarget,
      5: IMPORT_MESSAGES.duplicateMapping,
    });
  });

  it('flags a field that no longer exists', () => {
    const check = checkMapping(drafts([0, 'address:phone'], [1, 'name'], [2, 'field:99']), FIELDS);
    expect(check.rows[2]?.text).toBe(IMPORT_MESSAGES.unknownField);
  });

  it('sends every row in order as API entries (so mapping.<i> names row i)', () => {
    expect(mappingPayload(drafts([0, 'address:email'], [0, 'name'], [1, 'ignore'], [2, 'field:7'], [3, 'tags'], [4, 'note']))).toEqual([
      { column: 0, target: 'address', address_type: 'email' },
      { column: 0, target: 'name' },
      { column: 1, target: 'ignore' },
      { column: 2, target: 'field', field_id: 7 },
      { column: 3, target: 'tags' },
      { column: 4, target: 'note' },
    ]);
  });
});
