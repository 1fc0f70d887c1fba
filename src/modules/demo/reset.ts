import { and, eq, like, lt, sql } from 'drizzle-orm';
import type { Organization } from '../../context';
import type { Database } from '../../db/client';
import { organizations, platformSettings } from '../../db/schema';
import type { Env } from '../../env';
import { deleteR2Prefix, orgFilesPrefix } from '../../lib/r2-prefix';
import { DEMO_ORG_DOMAIN } from '../../shared/org-domain';
import { DEMO_RESET_AT_KEY, demoResetHours } from './demo-info';
import { seedDemoOrganization } from './seed';
import { forgetOrganizations } from '../../middleware/org-cache';

// The shared demo is seeded under a temporary domain that no host can name (it starts with `~`), then renamed
// to `demo` in one D1 batch together with the removal of the previous demo. So the demo is never half-seeded
// and never missing, and two creators or resetters running at once leave exactly one demo behind.

const TEMP_PREFIX = '~demo-';
const HOUR_MS = 3_600_000;

const tempDomain = () => `${TEMP_PREFIX}${crypto.randomUUID()}`;

async function findDemo(db: Database): Promise<Organization | null> {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, domain: organizations.domain })
    .from(organizations)
    .where(eq(organizations.domain, DEMO_ORG_DOMAIN))
    .limit(1);
  return row ?? null;
}

/** The stored time of the last reset, raw (JSON text) and parsed; nulls when never stored. */
async function readResetAtRow(db: Database): Promise<{ raw: string | null; at: string | null }> {
  const [row] = await db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, DEMO_RESET_AT_KEY)).limit(1);
  if (!row) return { raw: null, at: null };
  try {
    const at = JSON.parse(row.value);
    return { raw: row.value, at: typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? at : null };
  } catch {
    return { raw: row.value, at: null };
  }
}

/** The ISO time of the demo's last reset (platform_settings `demo.reset_at`), or null. */
export async function readDemoResetAt(db: Database): Promise<string | null> {
  return (await readResetAtRow(db)).at;
}

function storeResetAt(db: Database, at: string) {
  const value = JSON.stringify(at);
  return db
    .insert(platformSettings)
    .values({ key: DEMO_RESET_AT_KEY, value, updatedAt: at })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedAt: at } });
}

/** Removes a seeded-but-unused organisation (its rows go by cascade). */
async function dropOrganization(db: Database, id: number) {
  await db.delete(organizations).where(eq(organizations.id, id));
  forgetOrganizations();
}

/**
 * The demo organisation, created and seeded when it does not exist (a fresh machine's first request to
 * demo.localhost). Safe when two requests create it at once: one rename wins, the other's copy is dropped.
 */
export async function ensureDemoOrganization(db: Database): Promise<Organization> {
  const existing = await findDemo(db);
  if (existing) return existing;
  const tempId = await seedDemoOrganization(db, tempDomain());
  const now = new Date().toISOString();
  try {
    const renamed = await db
      .update(organizations)
      .set({ domain: DEMO_ORG_DOMAIN, updatedAt: now })
      .where(and(eq(organizations.id, tempId), sql`NOT EXISTS (SELECT 1 FROM ${organizations} o WHERE o.domain = ${DEMO_ORG_DOMAIN})`))
      .returning({ id: organizations.id });
    if (renamed.length) {
      forgetOrganizations();
      await storeResetAt(db, now);
    } else {
      await dropOrganization(db, tempId);
    }
  } catch (error) {
    await dropOrganization(db, tempId);
    throw error;
  }
  const demo = await findDemo(db);
  if (!demo) throw new Error('The demo organisation could not be created');
  return demo;
}

/** Best-effort removal of an organisation's files in R2 (everything under orgs/<id>/). */
export async function deleteOrganizationFiles(bucket: R2Bucket, orgId: number): Promise<void> {
  try {
    await deleteR2Prefix(bucket, orgFilesPrefix(orgId));
  } catch (error) {
    console.error(JSON.stringify({ level: 'warn', message: 'demo reset: removing old files failed', orgId, error: String(error) }));
  }
}

/**
 * Resets the shared demo: seeds a fresh copy, then in one batch removes the old demo (its rows by cascade) and
 * puts the copy in its place, and stores `demo.reset_at`. The old demo's R2 files are removed afterwards.
 */
export async function resetDemo(env: Env, db: Database): Promise<Organization> {
  const old = await findDemo(db);
  const tempId = await seedDemoOrganization(db, tempDomain());
  const now = new Date().toISOString();
  try {
    await db.batch([
      db.delete(organizations).where(eq(organizations.domain, DEMO_ORG_DOMAIN)),
      db.update(organizations).set({ domain: DEMO_ORG_DOMAIN, updatedAt: now }).where(eq(organizations.id, tempId)),
      storeResetAt(db, now),
    ]);
  } catch (error) {
    await dropOrganization(db, tempId);
    throw error;
  }
  forgetOrganizations();
  if (old) await deleteOrganizationFiles(env.FILES, old.id);
  return (await findDemo(db))!;
}

/** Drops copies a crashed reset left behind (temporary domains older than an hour). */
async function dropStaleCopies(db: Database) {
  const before = new Date(Date.now() - HOUR_MS).toISOString();
  await db.delete(organizations).where(and(like(organizations.domain, `${TEMP_PREFIX}%`), lt(organizations.createdAt, before)));
}

/**
 * The cron's demo step: resets when the demo is missing or its last reset is older than the reset interval.
 * A due reset is first claimed by a compare-and-set on `demo.reset_at`, so two runs at once reset only once.
 * Returns whether this run reset (or created) the demo.
 */
export async function resetDemoIfDue(env: Env, db: Database): Promise<boolean> {
  await dropStaleCopies(db);
  const demo = await findDemo(db);
  if (!demo) {
    await ensureDemoOrganization(db);
    return true;
  }
  const { raw, at } = await readResetAtRow(db);
  if (at && Date.now() - Date.parse(at) < demoResetHours(env) * HOUR_MS) return false;
  const claim = new Date().toISOString();
  const claimValue = JSON.stringify(claim);
  const claimed =
    raw === null
      ? await db
          .insert(platformSettings)
          .values({ key: DEMO_RESET_AT_KEY, value: claimValue, updatedAt: claim })
          .onConflictDoNothing()
          .returning({ key: platformSettings.key })
      : await db
          .update(platformSettings)
          .set({ value: claimValue, updatedAt: claim })
          .where(and(eq(platformSettings.key, DEMO_RESET_AT_KEY), eq(platformSettings.value, raw)))
          .returning({ key: platformSettings.key });
  if (!claimed.length) return false;
  try {
    await resetDemo(env, db);
  } catch (error) {
    // Give the claim back, so the next run tries again instead of waiting a whole interval.
    if (raw === null) await db.delete(platformSettings).where(eq(platformSettings.key, DEMO_RESET_AT_KEY));
    else await db.update(platformSettings).set({ value: raw }).where(eq(platformSettings.key, DEMO_RESET_AT_KEY));
    throw error;
  }
  return true;
}
