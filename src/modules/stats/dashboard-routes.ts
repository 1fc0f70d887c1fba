import { and, count, eq, gte } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { contacts, orgDailyStats } from '../../db/schema';
import { DASHBOARD_DAYS, type Dashboard, type DashboardDay, type DashboardFigures } from '../../shared/contracts/dashboard';
import { DAILY_COUNTERS, dayOf } from './daily';

// GET /dashboard: fourteen rows of the organisation's daily counters and one indexed count of its contacts, so
// the answer costs the same whatever the organisation's size.

const DAY_MS = 86_400_000;

const zero = (): DashboardFigures => Object.fromEntries(DAILY_COUNTERS.map((k) => [k, 0])) as unknown as DashboardFigures;

function sum(days: DashboardFigures[]): DashboardFigures {
  const total = zero();
  for (const d of days) for (const k of DAILY_COUNTERS) total[k] += d[k];
  return total;
}

export const dashboardRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const orgId = c.var.org.id;
  const today = Date.parse(`${dayOf()}T00:00:00.000Z`);
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) => dayOf(today - (DASHBOARD_DAYS - 1 - i) * DAY_MS));
  const [rows, [{ total }]] = await Promise.all([
    c.var.db.select().from(orgDailyStats).where(and(eq(orgDailyStats.orgId, orgId), gte(orgDailyStats.day, days[0]))),
    c.var.db.select({ total: count() }).from(contacts).where(eq(contacts.orgId, orgId)),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const figures = days.map((day): DashboardFigures => {
    const r = byDay.get(day);
    if (!r) return zero();
    return {
      requests: r.requests, request_bytes: r.requestBytes, emails_sent: r.emailsSent, sms_sent: r.smsSent, messages_failed: r.messagesFailed,
      opens: r.opens, human_opens: r.humanOpens, clicks: r.clicks, human_clicks: r.humanClicks, unsubscribes: r.unsubscribes,
      contacts_created: r.contactsCreated, contacts_deleted: r.contactsDeleted,
    };
  });
  // Contacts at the end of each day: today's count, walked back through each later day's creations and deletions.
  let atEnd = total;
  const totals = new Array<number>(DASHBOARD_DAYS);
  for (let i = DASHBOARD_DAYS - 1; i >= 0; i--) {
    totals[i] = Math.max(0, atEnd);
    atEnd -= figures[i].contacts_created - figures[i].contacts_deleted;
  }
  const data: Dashboard = {
    days: days.map((day, i): DashboardDay => ({ day, ...figures[i], contacts_total: totals[i] })),
    week: sum(figures.slice(-7)),
    previous_week: sum(figures.slice(0, -7)),
    contacts_total: total,
  };
  return c.json({ data });
});
