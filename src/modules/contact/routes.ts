import { contacts } from '../../db/schema';
import { contactFilterShape, contactInputSchema, type AttributeFilter, type Contact, type ContactInput } from '../../shared/contracts/contact';
import { crudRoutes } from '../crud/crud-routes';
import { announceAfter } from '../event/announce';
import { rawBatch } from '../crud/raw-batch';
import { addDaily } from '../stats/daily';
import { contactFilterConditions, contactSearch } from './filters';
import { presentContacts } from './present';
import { createContact, updateContact } from './write';
import { applyMemberships, checkMemberships } from '../membership/organisation-write';

/**
 * /contact: contacts with addresses, tags and attributes. A page costs a count, the page and one batch of three
 * relation queries; filters are described with contactFilterShape in the contract.
 */
export const contactRoutes = crudRoutes<typeof contacts, ContactInput, Contact>({
  table: contacts,
  input: contactInputSchema,
  // created_at orders by id: the order of creation, which the (org_id) index gives page by page at any size.
  sortable: { id: contacts.id, name: contacts.name, created_at: contacts.id, updated_at: contacts.updatedAt },
  defaultSort: { key: 'created_at', order: 'desc' },
  search: [],
  searchWhere: (text, c) => contactSearch(text, c.var.org.id),
  filters: {
    shape: contactFilterShape,
    where: (filter, c) => contactFilterConditions(filter as { tags?: number[]; address?: string; attributes?: AttributeFilter[] }, c.var.org.id),
  },
  keptTotal: { whole: 'contacts', per: { filter: 'tags', list: 'tag' } },
  audit: 'contact',
  // Each write's events (D1's triggers) go into the stream after the answer (src/modules/event).
  write: {
    // `subscriptions` are checked before anything is written (a foreign one is a 422 that changes nothing), then set
    // as PUT /contact/{id}/memberships sets them (src/modules/membership).
    create: async (c, input) => {
      const memberships = input.subscriptions ? await checkMemberships(c, input.subscriptions, 'subscriptions') : [];
      const created = await createContact(c, input);
      await applyMemberships(c, created, memberships);
      announceAfter(c);
      return created;
    },
    update: async (c, existing, input) => {
      const memberships = input.subscriptions ? await checkMemberships(c, input.subscriptions, 'subscriptions') : [];
      const updated = await updateContact(c, existing.id, input);
      await applyMemberships(c, existing.id, memberships);
      announceAfter(c);
      return updated;
    },
  },
  // The organisation's day (src/modules/stats): deletions one by one or in bulk.
  afterDelete: async (c, ids) => {
    await rawBatch(c.var.db, [addDaily(c.var.db, c.var.org.id, { contacts_deleted: ids.length })!]);
    announceAfter(c);
  },
  present: presentContacts,
});
