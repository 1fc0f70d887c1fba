import { and, asc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { messageArchives, organizations, storedFiles } from '../../db/schema';
import { notFound } from '../../lib/api-error';
import { ARCHIVE_MONTH_PATTERN, type ArchiveMonth, type MessageArchiveOverview } from '../../shared/contracts/retention';
import { effectiveRetentionDays } from './policy';

/** The chunks of a month, one after another: gzip members back to back are one valid gzip file. */
function concatenated(bucket: R2Bucket, keys: string[]): ReadableStream<Uint8Array> {
  let next = 0;
  let current: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!current) {
          if (next >= keys.length) return controller.close();
          const object = await bucket.get(keys[next++]);
          if (!object) throw new Error(`archive chunk ${keys[next - 1]} is missing from storage`);
          current = (object.body as ReadableStream<Uint8Array>).getReader();
        }
        const { done, value } = await current.read();
        if (!done) return controller.enqueue(value);
        current = null;
      }
    },
    cancel: () => current?.cancel(),
  });
}

/** /message-archive: the organisation's archived months, and one month's download. */
export const messageArchiveRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const orgId = c.var.org.id;
    const [[org], rows] = await Promise.all([
      c.var.db.select({ days: organizations.messageRetentionDays }).from(organizations).where(eq(organizations.id, orgId)),
      c.var.db
        .select({
          month: messageArchives.month,
          messages: sql<number>`sum(${messageArchives.messages})`,
          bytes: sql<number>`coalesce(sum(${storedFiles.bytes}), 0)`,
        })
        .from(messageArchives)
        .leftJoin(storedFiles, eq(storedFiles.key, messageArchives.key))
        .where(eq(messageArchives.orgId, orgId))
        .groupBy(messageArchives.month)
        .orderBy(sql`${messageArchives.month} DESC`),
    ]);
    const months: ArchiveMonth[] = rows.map((r) => ({ month: r.month, messages: Number(r.messages), bytes: Number(r.bytes) }));
    const data: MessageArchiveOverview = { retention_days: effectiveRetentionDays(c.env, org?.days ?? null), months };
    return c.json({ data });
  })
  .get('/:month', async (c) => {
    const month = c.req.param('month');
    if (!ARCHIVE_MONTH_PATTERN.test(month)) throw notFound();
    const chunks = await c.var.db
      .select({ key: messageArchives.key })
      .from(messageArchives)
      .where(and(eq(messageArchives.orgId, c.var.org.id), eq(messageArchives.month, month)))
      .orderBy(asc(messageArchives.firstId));
    if (chunks.length === 0) throw notFound();
    return new Response(
      concatenated(
        c.env.FILES,
        chunks.map((r) => r.key),
      ),
      {
        headers: {
          'content-type': 'application/gzip',
          'content-disposition': `attachment; filename="messages-${c.var.org.domain}-${month}.ndjson.gz"`,
          'cache-control': 'private, no-store',
        },
      },
    );
  });
