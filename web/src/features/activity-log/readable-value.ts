/**
 * A logged value as a person reads it. The log stores lists and objects (addresses, tags, an integration's
 * details) as JSON text; this shows them as "a, b" and "key: value; key: value" instead of braces and quotes.
 * Anything that is not JSON of a list or object is shown as stored.
 */
export function readableValue(value: string | null): string {
  if (value === null) return '';
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return describe(JSON.parse(trimmed));
  } catch {
    return value;
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value))
    return value.map((item) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? `(${describe(item)})` : describe(item))).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== null && inner !== undefined && inner !== '')
      .map(([key, inner]) => `${key}: ${describe(inner)}`)
      .join('; ');
  }
  return String(value);
}
