import { isListPart, type ExportPart } from './export-parts';

// The export as a readable page, self-contained (inline CSS, no scripts, no outside resources) and streamed like the
// JSON: a heading and a table per section, one block per message as it arrives. Its words are in English: the page
// is for the person who asked, whatever the console's language, and every value in it is their data as stored.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in html (element content and quoted attributes). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

/** A column or key name as a label: 'delivery_status' reads "Delivery status". */
const label = (key: string) => escapeHtml((key.charAt(0).toUpperCase() + key.slice(1)).replaceAll('_', ' '));

const NONE = '<span class="none">none</span>';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Any exported value as html: scalars as text, records as two-column tables, lists of records as tables with a row each. */
export function renderValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return NONE;
  if (typeof value !== 'object') return escapeHtml(String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return NONE;
    if (!value.every(isRecord)) return escapeHtml(value.map((v) => (isRecord(v) ? JSON.stringify(v) : String(v))).join(', '));
    const columns = [...new Set(value.flatMap((row) => Object.keys(row)))];
    const head = columns.map((c) => `<th>${label(c)}</th>`).join('');
    const rows = value.map((row) => `<tr>${columns.map((c) => `<td>${renderValue(row[c])}</td>`).join('')}</tr>`).join('');
    return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return NONE;
  return `<table class="record">${entries.map(([k, v]) => `<tr><th>${label(k)}</th><td>${renderValue(v)}</td></tr>`).join('')}</table>`;
}

const STYLE = `body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;margin:2rem auto;max-width:72rem;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.25rem;border-bottom:2px solid #d9e2ec;padding-bottom:.25rem;margin-top:2.5rem}
table{border-collapse:collapse;margin:.25rem 0;width:100%}th,td{border:1px solid #d9e2ec;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f0f4f8;font-weight:600}table.record>tbody>tr>th,table.record>tr>th{width:14rem}
ol.items{padding-left:1.5rem}ol.items>li{margin:1rem 0}.none{color:#829ab1;font-style:italic}
@media print{body{margin:0}h2{break-after:avoid}}`;

/** The page, a piece at a time; `title` heads it (the contact's name, escaped here). */
export async function* htmlDocument(parts: ExportPart[], title: string): AsyncGenerator<string> {
  yield `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`;
  yield `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>\n<h1>${escapeHtml(title)}</h1>\n`;
  for (const part of parts) {
    yield `<section id="${escapeHtml(part.key)}"><h2>${escapeHtml(part.title)}</h2>\n`;
    if (!isListPart(part)) {
      yield `${renderValue(part.value)}</section>\n`;
      continue;
    }
    let count = 0;
    for await (const item of part.items()) {
      yield `${count === 0 ? '<ol class="items">' : ''}<li>${renderValue(item)}</li>\n`;
      count += 1;
    }
    yield count === 0 ? `<p>${NONE}</p></section>\n` : '</ol></section>\n';
  }
  yield '</body></html>\n';
}
