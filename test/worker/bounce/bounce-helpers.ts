// What the bounce tests send back to a bounce address (a DSN, a feedback report, an auto-reply, a text bounce: written
// from RFC 3464 and RFC 5965), and a broadcast delivered with BOUNCE_DOMAIN set to bounce them against.
import { env } from 'cloudflare:workers';
import type { Env } from '../../../src/env';
import { deliverBatch } from '../../../src/modules/sending/deliver-batch';
import { SendChannels } from '../../../src/modules/sending/channels';
import type { SendBatchBody } from '../../../src/modules/sending/send-queue';
import { recordingProviders } from '../channel-helpers';
import { E, runAlarm, setup, startable } from '../broadcast/run-helpers';

export const DOMAIN = 'bounces.relay.test';
export const BOUNCING: Env = { ...E, BOUNCE_DOMAIN: DOMAIN };

/** A delivery status notification for `recipient` with `status` (RFC 3464), as a receiving server sends it back. */
export function dsn(recipient: string, status: string, action = 'failed') {
  return `From: Mail Delivery System <MAILER-DAEMON@mx.example.net>
To: whoever
Subject: Undelivered Mail Returned to Sender
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="b1"

--b1
Content-Type: text/plain

Your message could not be delivered.

--b1
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net
Arrival-Date: Thu, 26 Nov 2026 10:00:00 +0000

Final-Recipient: rfc822; ${recipient}
Action: ${action}
Status: ${status}
Diagnostic-Code: smtp; ${status.startsWith('5') ? '550' : '452'} ${status} <${recipient}>: ${status.startsWith('5') ? 'Recipient address rejected: User unknown' : 'Mailbox full, try later'}

--b1
Content-Type: text/rfc822-headers

From: news@acme.test
To: ${recipient}
Subject: Hi

--b1--
`;
}

/** A feedback report (RFC 5965 ARF): the recipient pressed "Report spam". */
export function arf(recipient: string) {
  return `From: feedback@mailbox.example.com
To: whoever
Subject: Complaint about message
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="f1"

--f1
Content-Type: text/plain

This is an email abuse report.

--f1
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: ExampleFBL/1.0
Version: 1
Original-Rcpt-To: ${recipient}

--f1
Content-Type: message/rfc822

From: news@acme.test
To: ${recipient}
Subject: Hi

Hello
--f1--
`;
}

export const AUTO_REPLY = `From: ann@example.com
To: whoever
Subject: Out of office: Hi
Auto-Submitted: auto-replied

I am away until Monday.
`;

export const TEXT_BOUNCE = `From: postmaster@old-isp.example
To: whoever
Subject: failure notice

Hi. This is the qmail-send program at old-isp.example.
I'm afraid I wasn't able to deliver your message to the following addresses.

<cat@example.com>:
550 sorry, no mailbox here by that name. (#5.1.1)
`;

export const bytes = (text: string) => new TextEncoder().encode(text.replace(/\n/g, '\r\n')).buffer as ArrayBuffer;

type Setup = Awaited<ReturnType<typeof setup>>;

/** Sends a broadcast of `s` (to Ann, Cat and Dan) with BOUNCE_DOMAIN set; answers the recorded mails by address. */
export async function sendBouncing(s: Setup, extra: Record<string, unknown> = {}) {
  const id = await startable(s.o, s.body(extra));
  const bodies: SendBatchBody[] = await runAlarm(s.o, id);
  const rec = recordingProviders([{ ok: true, externalId: 'x' }]);
  const channels = new SendChannels(BOUNCING, rec.providers);
  for (const body of bodies) await deliverBatch(BOUNCING, body, 1, channels);
  await channels.close();
  const to = (address: string) => rec.sent.find((m) => m.to === address)!;
  return { id, rec, to };
}

/** A new organisation (setup) and its first broadcast, sent with BOUNCE_DOMAIN set. */
export async function bouncingBroadcast(prefix: string) {
  const s = await setup(prefix);
  return { ...s, ...(await sendBouncing(s)) };
}

export const blacklisted = (orgId: number) =>
  env.DB.prepare('SELECT value, info FROM blacklist WHERE org_id = ? ORDER BY value')
    .bind(orgId)
    .all<{ value: string; info: string }>()
    .then((r) => r.results);
