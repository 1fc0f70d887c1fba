import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { StreamEvent } from '../../../src/shared/contracts/events';
import { EVENT_DATA_SCHEMAS } from '../../../src/shared/contracts/event-schemas';
import { api, type Session } from '../api-helpers';

// The event stream's tests (src/modules/event): the organisation's events as the pull API answers them (it absorbs
// D1's outbox first), each checked against its type's data schema.

export interface EventsPage {
  data: StreamEvent[];
  next_cursor: string;
  has_more: boolean;
}

/** One page of GET /api/v1/events (200 expected). */
export async function pull(s: Session, query = ''): Promise<EventsPage> {
  const res = await api<EventsPage>(s, 'GET', `/events${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Every event of the organisation (up to 500), each valid against its type's schema. */
export async function allEvents(s: Session): Promise<StreamEvent[]> {
  const page = await pull(s, '?limit=500');
  for (const event of page.data) {
    const parsed = EVENT_DATA_SCHEMAS[event.type as keyof typeof EVENT_DATA_SCHEMAS].safeParse(event.data);
    expect(parsed.success, `${event.type} ${JSON.stringify(event.data)} ${parsed.error?.message}`).toBe(true);
  }
  return page.data;
}

/** The events of `type` among the organisation's. */
export const eventsOfType = async (s: Session, type: string) => (await allEvents(s)).filter((e) => e.type === type);

/** An outbox row written as D1's triggers write them (tests of the absorption and the cursor). */
export async function outboxRow(orgId: number, type: string, data: unknown, eventId = `evt_${crypto.randomUUID().replace(/-/g, '')}`) {
  await env.DB.prepare("INSERT INTO event_outbox (event_id, org_id, type, data, at) VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))")
    .bind(eventId, orgId, type, JSON.stringify(data))
    .run();
  return eventId;
}

/** Outbox rows left in D1 for the organisation. */
export const outboxCount = async (orgId: number) =>
  Number((await env.DB.prepare('SELECT count(*) AS n FROM event_outbox WHERE org_id = ?').bind(orgId).first<{ n: number }>())!.n);
