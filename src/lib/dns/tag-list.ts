// The tag=value lists of DKIM key records (RFC 6376 3.2) and DMARC records (RFC 7489 6.4): `tag=value` separated by
// semicolons, spaces around either ignored, a trailing semicolon allowed.

/** The tags of a record, names lower-cased; null when a part is not tag=value or a tag appears twice. */
export function parseTagList(record: string): Map<string, string> | null {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq <= 0) return null;
    const name = item.slice(0, eq).trim().toLowerCase();
    if (!/^[a-z][a-z0-9_]*$/.test(name) || tags.has(name)) return null;
    tags.set(name, item.slice(eq + 1).trim());
  }
  return tags;
}
