import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

// Events a route records in D1's outbox itself, in the batch of its own writes, where no trigger sees the change:
// an inbound SMS (sms.received), which may change nothing else.

export interface ReceivedSms {
  orgId: number;
  integrationId: number;
  from: string;
  to: string | null;
  body: string;
  providerId: string | null;
}

/** The outbox row of an inbound SMS, naming the contact with the sending number if there is one. */
export function receivedSmsStatement(db: Database, sms: ReceivedSms) {
  return db.run(sql`
    INSERT INTO event_outbox (event_id, org_id, type, contact_id, data, at)
    SELECT 'evt_' || lower(hex(randomblob(16))), ${sms.orgId}, 'sms.received', a.contact_id,
      json_object('from', ${sms.from}, 'to', ${sms.to}, 'body', ${sms.body}, 'integration_id', ${sms.integrationId},
        'contact_id', a.contact_id, 'provider_id', ${sms.providerId}),
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM (SELECT 1) LEFT JOIN (
      SELECT contact_id FROM contact_addresses WHERE org_id = ${sms.orgId} AND type = 'phone' AND value = ${sms.from} ORDER BY contact_id LIMIT 1
    ) a`);
}
