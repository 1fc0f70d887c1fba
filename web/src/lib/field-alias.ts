// How a custom field's alias (its name in templates: contact.fields.<alias>) is made from its name, for the field
// form and for the import wizard's "create field from this column". One rule, here.

/** A suggested alias for a name: lower-case letters, digits and underscores, starting with a letter ('' when none). */
export function aliasFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!base) return '';
  return /^[a-z]/.test(base) ? base.slice(0, 64) : `f_${base}`.slice(0, 64);
}

/** An alias for a new field that no field in `taken` has: the name's alias ('field' when it gives none), then _2, _3... */
export function freeAlias(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = aliasFromName(name) || 'field';
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${base.slice(0, 64 - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
