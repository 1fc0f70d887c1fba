import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import type { Database } from '../../db/client';
import { requestLedgers } from '../ledger/request-ledger';
import { orgDailyStats, orgUsage } from '../../db/schema';
import { DASHBOARD_DAYS, type Dashboard, type DashboardDay, type DashboardFigures } from '../../shared/contracts/dashboard';
import { DAILY_COUNTERS, dayOf } from './daily';
import { measureDataVolumeIfDue } from './data-volume';
import { keptCountQuery } from './list-counts';

// GET /dashboard: fourteen rows of the organisation's daily counters, its usage row, the last volume gauges before
// the window and its kept contact count (list_counts), so the answer costs the same whatever the organisation's size.

const DAY_MS = 86_400_000;

const zero = (): DashboardFigures => Object.fromEntries(DAILY_COUNTERS.map((k) => [k, 0])) as unknown as DashboardFigures;

function sum(days: DashboardFigures[]): DashboardFigures {
  const total = zero();
  for (const d of days) for (const k of DAILY_COUNTERS) total[k] += d[k];
  return total;
}

type DayRow = typeof orgDailyStats.$inferSelect;

/** A day's figures from D1 and from the ledger, added (the volumes are D1's). */
function addDays(d1: DayRow, ledger: DayRow): DayRow {
  const added = { ...d1 };
  for (const key of Object.keys(d1) as (keyof DayRow)[]) {
    if (key === 'orgId' || key === 'day' || key === 'fileBytes' || key === 'dataBytes') continue;
    (added as Record<string, unknown>)[key] = Number(d1[key] ?? 0) + Number(ledger[key] ?? 0);
  }
  return added;
}

export const dashboardRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const orgId = c.var.org.id;
  const today = Date.parse(`${dayOf()}T00:00:00.000Z`);
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) => dayOf(today - (DASHBOARD_DAYS - 1 - i) * DAY_MS));
  const window = (db: Database) =>
    db
      .select()
      .from(orgDailyStats)
      .where(and(eq(orgDailyStats.orgId, orgId), gte(orgDailyStats.day, days[0])));
  // The organisation's days are counted in two places: D1 (requests, contacts, unsubscribes, volumes) and its ledgers
  // (messages sent and failed, opens and clicks, bounces and complaints: src/modules/ledger), each the only writer of its own figures; a day
  // of an organisation with several generations of ledgers is the sum of theirs.
  const [d1Rows, ledgerRows, [{ total }], [usage], [before]] = await Promise.all([
    window(c.var.db),
    requestLedgers(c).then(async (dbs) => (await Promise.all(dbs.map(window))).flat()),
    keptCountQuery(c.var.db, orgId, { list: 'contacts', key: 0 }),
    c.var.db.select().from(orgUsage).where(eq(orgUsage.orgId, orgId)),
    // The volumes as they stood when the window opened: the last gauges before it.
    c.var.db
      .select({ fileBytes: sql<number | null>`max(${orgDailyStats.fileBytes})`, dataBytes: sql<number | null>`max(${orgDailyStats.dataBytes})` })
      .from(orgDailyStats)
      .where(
        and(
          eq(orgDailyStats.orgId, orgId),
          eq(
            orgDailyStats.day,
            c.var.db
              .select({ day: sql`max(${orgDailyStats.day})` })
              .from(orgDailyStats)
              .where(and(eq(orgDailyStats.orgId, orgId), lt(orgDailyStats.day, days[0]), isNotNull(orgDailyStats.fileBytes))),
          ),
        ),
      ),
  ]);
  // Data volume is the cron's hourly measurement; an organisation it has not measured yet (new since, or a fresh
  // local start) is measured once now, after answering.
  if (!usage?.dataMeasuredAt)
    c.executionCtx.waitUntil(
      measureDataVolumeIfDue(c.var.db, new Date(), orgId).catch((error) =>
        console.error(JSON.stringify({ level: 'error', stats: 'data volume not measured', error: String(error) })),
      ),
    );
  const byDay = new Map(d1Rows.map((r) => [r.day, r]));
  for (const r of ledgerRows) {
    const d1 = byDay.get(r.day);
    byDay.set(r.day, d1 ? addDays(d1, r) : r);
  }
  const figures = days.map((day): DashboardFigures => {
    const r = byDay.get(day);
    if (!r) return zero();
    return {
      requests: r.requests,
      request_bytes: r.requestBytes,
      emails_sent: r.emailsSent,
      sms_sent: r.smsSent,
      messages_failed: r.messagesFailed,
      opens: r.opens,
      human_opens: r.humanOpens,
      clicks: r.clicks,
      human_clicks: r.humanClicks,
      opened: r.opened,
      human_opened: r.humanOpened,
      clicked: r.clicked,
      human_clicked: r.humanClicked,
      unsubscribes: r.unsubscribes,
      bounces: r.bounces,
      complaints: r.complaints,
      contacts_created: r.contactsCreated,
      contacts_deleted: r.contactsDeleted,
    };
  });
  // Contacts at the end of each day: today's count, walked back through each later day's creations and deletions.
  let atEnd = total;
  const totals = new Array<number>(DASHBOARD_DAYS);
  for (let i = DASHBOARD_DAYS - 1; i >= 0; i--) {
    totals[i] = Math.max(0, atEnd);
    atEnd -= figures[i].contacts_created - figures[i].contacts_deleted;
  }
  // Volumes at the end of each day: the day's last gauge, else the day before's.
  let fileBytes = before?.fileBytes ?? 0;
  let dataBytes: number | null = before?.dataBytes ?? null;
  const volumes = days.map((day) => {
    const r = byDay.get(day);
    fileBytes = r?.fileBytes ?? fileBytes;
    dataBytes = r?.dataBytes ?? dataBytes;
    return { file_bytes: fileBytes, data_bytes: dataBytes };
  });
  const data: Dashboard = {
    days: days.map((day, i): DashboardDay => ({ day, ...figures[i], contacts_total: totals[i], ...volumes[i] })),
    week: sum(figures.slice(-7)),
    previous_week: sum(figures.slice(0, -7)),
    contacts_total: total,
    file_bytes: usage?.fileBytes ?? 0,
    data_bytes: usage?.dataMeasuredAt ? usage.dataBytes : null,
    data_measured_at: usage?.dataMeasuredAt ?? null,
  };
  return c.json({ data });
});
