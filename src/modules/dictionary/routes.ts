import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { notFound } from '../../lib/api-error';
import type { Dictionaries } from '../../shared/contracts/auth';
import type { ListResponse } from '../../shared/list';
import { DICTIONARIES } from '../auth/init-routes';

export interface DictionaryItem {
  id: string;
  title: string;
}

/** Path segment -> dictionary (spec 7: /dictionary/template-types, address-types, integration-types, field-types). */
const PATHS = new Map<string, keyof Dictionaries>([
  ['template-types', 'template_types'],
  ['address-types', 'address_types'],
  ['integration-types', 'integration_types'],
  ['field-types', 'field_types'],
]);

// English titles; the console shows translated ones where its locale files have a key for the id.
const TITLES = new Map([
  ['smtp', 'SMTP'],
  ['html', 'HTML'],
  ['multiselect', 'Multi-select'],
]);
const title = (id: string) => TITLES.get(id) ?? id.charAt(0).toUpperCase() + id.slice(1);

/** /dictionary/{name}: a fixed list of ids and titles in the list shape, so the console's selects load it like any list. */
export const dictionaryRoutes = new Hono<AppEnv>().get('/:name', (c) => {
  const key = PATHS.get(c.req.param('name'));
  if (!key) throw notFound();
  const items: DictionaryItem[] = DICTIONARIES[key].map((id) => ({ id, title: title(id) }));
  const body: ListResponse<DictionaryItem> = {
    items,
    meta: { total: items.length, page: 1, page_size: items.length, total_pages: items.length ? 1 : 0 },
  };
  return c.json(body);
});
