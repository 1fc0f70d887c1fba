import { sql, type SQL } from 'drizzle-orm';

// What an erased message keeps: the one rule for the ledgers' rows (SQL) and the archives' lines (JS). It keeps
// what the organisation's figures are made of (type, status, outcome, delivery status and code, counters, times,
// broadcast, sender, template) and loses everything of the person: the address (replaced by ERASED_ADDRESS, the
// column is required), the name, the rendered content (subject and bodies, which carry their name and fields), the
// error text (servers quote the address in it), the caller's metadata and the send options (cc, bcc, reply-to,
// inline attachments), and the link to the contact. Its tracking events lose the user agent, the IP hash and the
// URL (a link may carry their address); their kind, class and reason stay for the figures.

export const ERASED_ADDRESS = 'erased';

/** The columns an erased message gets, as column -> value (null or a string). */
const ERASED_MESSAGE_COLUMNS: Record<string, string | null> = {
  to_address: ERASED_ADDRESS,
  contact_id: null,
  contact_name: null,
  subject: null,
  body: '',
  body_plain: null,
  error: null,
  metadata: null,
  send_options: null,
};

const ERASED_EVENT_COLUMNS: Record<string, string | null> = { user_agent: null, ip_hash: null, url: null };

/** The SET list of an UPDATE of messages that erases them. */
export const erasedMessageSet: SQL = sql.join(
  Object.entries(ERASED_MESSAGE_COLUMNS).map(([column, value]) => sql`${sql.identifier(column)} = ${value}`),
  sql`, `,
);

/** The SET list of an UPDATE of tracking_events that erases them. */
export const erasedEventSet: SQL = sql.join(
  Object.entries(ERASED_EVENT_COLUMNS).map(([column, value]) => sql`${sql.identifier(column)} = ${value}`),
  sql`, `,
);

/** An archived line ({ message, events }) erased the same way. */
export function eraseArchivedLine(line: { message: Record<string, unknown>; events: Record<string, unknown>[] }) {
  return {
    message: { ...line.message, ...ERASED_MESSAGE_COLUMNS },
    events: line.events.map((event) => ({ ...event, ...ERASED_EVENT_COLUMNS })),
  };
}

/**
 * The stream's events of an erased message keep the message's id, channel and outcome; json_replace changes only
 * what each event has (a sent event has no url, an open no error).
 */
export const erasedStreamEventData: SQL = sql`json_replace(data, '$.message.to', ${ERASED_ADDRESS}, '$.message.subject', NULL,
  '$.message.contact_id', NULL, '$.metadata', NULL, '$.error', NULL, '$.url', NULL)`;
