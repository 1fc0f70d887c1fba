// One message as the export shows it, whether read from a ledger or from an archive line (both hold the ledger's
// columns, snake_case): who it went to and from, what it said when the content was kept with it (a broadcast's is
// rendered from the broadcast), what became of it, and every open and click hit. Internal columns (claims,
// attempts, provider ids) are left out: they say nothing about the person.

type Row = Record<string, unknown>;

const parsed = (value: unknown) => {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

/** A tracking event: what happened, when, the link, how it was classed (human or machine) and why, and the client. */
export const eventView = (e: Row) => ({
  kind: e.kind,
  at: e.at,
  url: e.url ?? null,
  class: e.class,
  reason: e.reason,
  method: e.method,
  user_agent: e.user_agent ?? null,
  as_organization: e.as_organization ?? null,
});

/** The message with its outcome and events. */
export const messageView = (m: Row, events: Row[]) => ({
  id: m.id,
  type: m.type,
  broadcast_id: m.broadcast_id ?? null,
  is_test: Boolean(m.is_test),
  from_address: m.from_address,
  from_name: m.from_name ?? null,
  to_address: m.to_address,
  contact_name: m.contact_name ?? null,
  subject: m.subject ?? null,
  body: m.body || null,
  body_plain: m.body_plain || null,
  metadata: parsed(m.metadata),
  created_at: m.created_at,
  outcome: {
    status: m.status,
    delivery_status: m.delivery_status ?? null,
    error: m.error ?? null,
    delivery_error_code: m.delivery_error_code ?? null,
    sent_at: m.sent_at ?? null,
    opened_at: m.opened_at ?? null,
    clicked_at: m.clicked_at ?? null,
    human_opened_at: m.human_opened_at ?? null,
    human_clicked_at: m.human_clicked_at ?? null,
    opens: m.opens_total ?? 0,
    clicks: m.clicks_total ?? 0,
  },
  events: events.map(eventView),
});
