import { eq } from 'drizzle-orm';
import { blacklist } from '../../db/schema';
import { normalizeAddress, type AddressType } from '../../shared/address';
import { blacklistFilterShape, blacklistInputSchema, type BlacklistEntry, type BlacklistInput } from '../../shared/contracts/blacklist';
import type { SuppressionReason } from '../../shared/contracts/suppression';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { crudRoutes } from '../crud/crud-routes';
import { announceWrites } from '../event/announce';

/**
 * /blacklist: list, read, create and delete (one or many) blocked addresses; entries are never edited. The platform
 * adds its own for bounces and spam complaints (src/modules/bounce), with a reason and the message.
 */
const blacklistCrud = crudRoutes<typeof blacklist, BlacklistInput, BlacklistEntry>({
  table: blacklist,
  input: blacklistInputSchema,
  only: ['list', 'read', 'create', 'delete', 'bulkDelete'],
  sortable: { created_at: blacklist.createdAt, id: blacklist.id, type: blacklist.type, value: blacklist.value },
  defaultSort: { key: 'created_at', order: 'desc' },
  search: [blacklist.value, blacklist.info],
  filters: {
    shape: blacklistFilterShape,
    where: (filter) => [filter.type ? eq(blacklist.type, filter.type as AddressType) : undefined],
  },
  audit: 'blacklist',
  // Stored in the normalised spelling so the unique index and the sending engine's lookups agree.
  toValues: (input) => ({
    type: input.type,
    value: input.type && input.value !== undefined ? normalizeAddress(input.type, input.value) : undefined,
    info: input.info ?? null,
  }),
  present: (_c, rows) =>
    rows.map((row) => ({
      id: row.id,
      type: row.type as AddressType,
      value: row.value,
      info: row.info,
      reason: row.reason as SuppressionReason | null,
      message_id: row.messageId,
      created_at: row.createdAt,
    })),
});

/** The routes, each write announcing its events (contact.suppressed / .unsuppressed, D1's outbox: src/modules/event). */
export const blacklistRoutes = new Hono<AppEnv>().use('*', announceWrites).route('/', blacklistCrud);
