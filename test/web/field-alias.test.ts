import { describe, expect, it } from 'vitest';
import { freeAlias } from '../../web/src/lib/field-alias';

// The alias of a field the import wizard makes from a column: from its name, and never one a field has already
// (the API refuses a taken alias; the wizard does not show aliases, so it picks a free one itself).

describe('freeAlias', () => {
  it("makes the name's alias, or 'field' when the name has no Latin letters or digits", () => {
    expect(freeAlias('Shoe size', [])).toBe('shoe_size');
    expect(freeAlias('Город', [])).toBe('field');
  });

  it('adds _2, _3... until no field has it, within 64 characters', () => {
    expect(freeAlias('Shoe size', ['shoe_size'])).toBe('shoe_size_2');
    expect(freeAlias('Shoe size', ['shoe_size', 'shoe_size_2'])).toBe('shoe_size_3');
    const long = 'x'.repeat(80);
    const alias = freeAlias(long, ['x'.repeat(64)]);
    expect(alias).toBe(`${'x'.repeat(62)}_2`);
    expect(alias.length).toBe(64);
  });
});
