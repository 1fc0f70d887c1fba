import { and, asc, eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../context';
import { sendingDomains } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError, notFound, validationFailed } from '../../lib/api-error';
import { parseId, validJson } from '../../lib/validate';
import { userIdOf } from '../../middleware/auth';
import { DOMAIN_MESSAGES, type DomainRow, domainCreateSchema } from '../../shared/contracts/domain';
import type { ListResponse } from '../../shared/list';
import { changedFields, recordActivity } from '../activity-log/record';
import { checkDomain } from './check';
import { type DomainRecordRow, emptyChecks, parentHolder } from './claim';
import { newDkimKey, nextSelector } from './keys';
import { readDomainName } from './name';
import { loadDomainContext } from './org-context';
import { presentDomain } from './present';

type Ctx = Context<AppEnv>;

/** The activity log's name for sending domains (their API path). */
export const DOMAIN_ENTITY = 'domain';

const scopeOf = (c: Ctx) => new TenantScope(c.var.db, sendingDomains, c.var.org.id);

/** The organisation's domain the path id names; another organisation's (or none) is a 404. */
async function domainOfRoute(c: Ctx): Promise<DomainRecordRow> {
  const id = parseId(c.req.param('id'));
  const row = id === null ? undefined : await scopeOf(c).findById(id);
  if (!row) throw notFound();
  return row;
}

async function answerRow(c: Ctx, row: DomainRecordRow): Promise<DomainRow> {
  return presentDomain(row, await loadDomainContext(c.var.db, c.var.org.id), c.env);
}

/** What the activity log shows of a domain: no tokens, no keys. */
const logged = (row: DomainRecordRow) => ({ domain: row.domain, dkim_selector: row.dkimSelector, next_dkim_selector: row.nextDkimSelector });

/** 16 random bytes as hex: the verification record's token. */
const newToken = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** The DKIM selectors every organisation's row of a name uses (current and next): a new key takes another. */
async function selectorsOf(c: Ctx, domain: string): Promise<string[]> {
  const rows = await c.var.db
    .select({ current: sendingDomains.dkimSelector, next: sendingDomains.nextDkimSelector })
    .from(sendingDomains)
    .where(eq(sendingDomains.domain, domain));
  return rows.flatMap((r) => (r.next ? [r.current, r.next] : [r.current]));
}

/**
 * /domain: the organisation's sending domains (issue 37). Anyone signed in may read them (an organisation key too);
 * adding, checking, rotating and deleting need a person, not a key.
 */
export const domainRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const rows = (await scopeOf(c).selectWhere().orderBy(asc(sendingDomains.domain), asc(sendingDomains.id))) as DomainRecordRow[];
    const context = await loadDomainContext(c.var.db, c.var.org.id);
    const body: ListResponse<DomainRow> = {
      items: rows.map((row) => presentDomain(row, context, c.env)),
      meta: { total: rows.length, page: 1, page_size: rows.length, total_pages: 1 },
    };
    return c.json(body);
  })
  .get('/:id', async (c) => c.json({ data: await answerRow(c, await domainOfRoute(c)) }))
  .post('/', validJson(domainCreateSchema), async (c) => {
    userIdOf(c);
    const name = readDomainName(c.req.valid('json').domain, c.env);
    if (!name.ok) throw validationFailed({ domain: [DOMAIN_MESSAGES[name.reason]] });
    const { domain } = name;
    const [existing] = await scopeOf(c).selectWhere(eq(sendingDomains.domain, domain)).limit(1);
    if (existing) throw validationFailed({ domain: [DOMAIN_MESSAGES.exists] });
    if (await parentHolder(c.var.db, c.var.org.id, domain)) throw new ApiError(409, 'subdomainTaken', DOMAIN_MESSAGES.subdomainTaken);
    const key = await newDkimKey(c.env, nextSelector(new Date(), null, await selectorsOf(c, domain)));
    let row: DomainRecordRow;
    try {
      [row] = (await scopeOf(c).insert({
        domain,
        verificationToken: newToken(),
        dkimSelector: key.selector,
        dkimPublicKey: key.publicKey,
        dkimPrivateKey: key.sealedPrivateKey,
        checks: emptyChecks(),
      })) as DomainRecordRow[];
    } catch (error) {
      // The same name added twice at once: the second insert meets the (organisation, domain) index.
      if (String(error).includes('UNIQUE')) throw validationFailed({ domain: [DOMAIN_MESSAGES.exists] });
      throw error;
    }
    await recordActivity(c, DOMAIN_ENTITY, row.id, 'create', changedFields(null, logged(row)));
    return c.json({ data: await answerRow(c, row) }, 201);
  })
  .post('/:id/check', async (c) => {
    userIdOf(c);
    const result = await checkDomain(c.env, c.var.db, await domainOfRoute(c));
    if (result.refused) throw new ApiError(409, result.refused, DOMAIN_MESSAGES[result.refused]);
    return c.json({ data: await answerRow(c, result.row) });
  })
  .post('/:id/rotate-key', async (c) => {
    userIdOf(c);
    const before = await domainOfRoute(c);
    if (!before.verifiedAt) throw new ApiError(409, 'notVerified', DOMAIN_MESSAGES.notVerified);
    if (before.nextDkimSelector) throw new ApiError(409, 'rotationPending', DOMAIN_MESSAGES.rotationPending);
    const key = await newDkimKey(c.env, nextSelector(new Date(), before.dkimSelector, await selectorsOf(c, before.domain)));
    const [row] = (await scopeOf(c).update(and(eq(sendingDomains.id, before.id), eq(sendingDomains.updatedAt, before.updatedAt))!, {
      nextDkimSelector: key.selector,
      nextDkimPublicKey: key.publicKey,
      nextDkimPrivateKey: key.sealedPrivateKey,
      updatedAt: new Date().toISOString(),
    })) as DomainRecordRow[];
    // Changed in between (a check promoted a key, another rotation began): let the caller look again.
    if (!row) throw new ApiError(409, 'rotationPending', DOMAIN_MESSAGES.rotationPending);
    await recordActivity(c, DOMAIN_ENTITY, row.id, 'update', changedFields(logged(before), logged(row)));
    return c.json({ data: await answerRow(c, row) });
  })
  .delete('/:id', async (c) => {
    userIdOf(c);
    const row = await domainOfRoute(c);
    await scopeOf(c).delete(eq(sendingDomains.id, row.id));
    await recordActivity(c, DOMAIN_ENTITY, row.id, 'delete', changedFields(logged(row), null));
    return c.json({ data: { deleted: 1 } });
  });
