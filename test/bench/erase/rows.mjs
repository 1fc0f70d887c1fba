// The rows of a plan's messages (plan.mjs) as the ledger keeps them: every column of `messages` and
// `tracking_events` in the table's order with its defaults (what `SELECT *` answers, and so what an archive line
// holds), filled with realistic values: broadcast messages keep no body (rendered from the broadcast when viewed),
// transactional ones their rendered html (300-600 bytes, with the recipient's name) and the caller's metadata; about
// a third are opened, some clicked, each hit a tracking event with a user agent and an IP hash.
import Database from 'better-sqlite3';
import { isoAt } from './chunks.mjs';
import { random } from './plan.mjs';

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY = 86_400_000;

/**
 * A row of `table` with every column, in the table's order, at its defaults: the table is made in memory from the
 * ledger's own definition and one row with `required` is read back.
 */
export function rowTemplate(ledgerFile, table, required) {
  const ledger = new Database(ledgerFile, { readonly: true });
  const { sql } = ledger.prepare('SELECT sql FROM sqlite_master WHERE type = ? AND name = ?').get('table', table);
  ledger.close();
  const scratch = new Database(':memory:');
  scratch.exec(sql);
  const names = Object.keys(required);
  scratch.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`).run(required);
  const row = scratch.prepare(`SELECT * FROM ${table}`).get();
  scratch.close();
  for (const name of names) row[name] = null;
  return row;
}

const hex = (next, digits) => {
  let out = '';
  while (out.length < digits)
    out += Math.floor(next() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, digits);
};

/** A transactional message's subject and html: an order shipped, a password reset, an invoice. */
function transactionalContent(kind, firstName, next, at) {
  const order = `A-${100000 + Math.floor(next() * 900000)}`;
  const footer = '<p style="color:#888;font-size:12px">Acme Inc, 1 Market Street, Springfield. You get this mail because you have an account.</p>';
  const open = '<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">';
  if (kind === 0) {
    const by = new Date(at + 3 * DAY).toISOString().slice(0, 10);
    return {
      subject: `Your order ${order} has shipped`,
      body: `${open}<p>Hi ${firstName},</p><p>Good news: your order <b>${order}</b> has shipped and should arrive by ${by}.</p><p><a href="https://shop.acme.test/orders/${order}/track">Track your parcel</a></p>${footer}</body></html>`,
      metadata: JSON.stringify({ order, kind: 'shipping' }),
    };
  }
  if (kind === 1) {
    const token = hex(next, 24);
    return {
      subject: 'Reset your Acme password',
      body: `${open}<p>Hi ${firstName},</p><p>Someone asked to reset the password of your Acme account. If it was you, choose a new one within the hour:</p><p><a href="https://shop.acme.test/reset?token=${token}">Choose a new password</a></p><p>If it was not you, ignore this mail.</p>${footer}</body></html>`,
      metadata: JSON.stringify({ kind: 'password_reset' }),
    };
  }
  const amount = (10 + next() * 490).toFixed(2);
  return {
    subject: `Invoice for order ${order}`,
    body: `${open}<p>Hi ${firstName},</p><p>Thank you for your order <b>${order}</b>. Your invoice of EUR ${amount} is attached to your account.</p><p><a href="https://shop.acme.test/invoices/${order}">View the invoice</a></p>${footer}</body></html>`,
    metadata: JSON.stringify({ order, kind: 'invoice', amount }),
  };
}

/**
 * Makes the rows of one organisation's plan. `org`: { orgId, firstId (message id of plan index 0), domain,
 * contactOf(pool index) -> { id, name, address }, persons: [{ id, name, address }], broadcastBase, seed,
 * messageTemplate, eventTemplate }. Answers { message(i) -> { message, events } }.
 */
export function rowMaker(plan, org) {
  const recipientOf = (who) => (who >= 0 ? org.contactOf(who) : org.persons[-1 - who]);
  return {
    message(i) {
      const id = org.firstId + i;
      const next = random((id * 2654435761) ^ org.seed);
      const at = plan.time[i];
      const who = recipientOf(plan.recipient[i]);
      const how = plan.bare[i];
      const b = plan.broadcast[i];
      const firstName = who.name.split(' ')[0];
      const m = { ...org.messageTemplate, org_id: org.orgId, id, type: 'email', is_test: 0, attempts: 1 };
      m.contact_id = how === 0 ? who.id : null;
      m.contact_name = how === 0 ? who.name : null;
      m.to_address = who.address;
      if (b >= 0) {
        Object.assign(m, { sender_id: 1, template_id: 1, broadcast_id: org.broadcastBase + b, from_address: `news@${org.domain}`, from_name: 'Acme News' });
        m.subject = `${MONTHS[new Date(at).getUTCMonth()]} news from Acme (#${b + 1})`;
        m.body = '';
      } else {
        const content = transactionalContent(Math.floor(next() * 3), firstName, next, at);
        Object.assign(m, { sender_id: 2, template_id: 2, api_key_id: 1, from_address: `orders@${org.domain}`, from_name: 'Acme Shop', ...content });
      }
      const failed = next() < (b >= 0 ? 0.005 : 0.01);
      m.created_at = isoAt(at);
      m.status = failed ? 'failed' : 'sent';
      if (failed) m.error = `550 5.1.1 <${m.to_address}>: Recipient address rejected: User unknown in virtual mailbox table`;
      else {
        m.sent_at = isoAt(at + 1500);
        m.external_id = `<${hex(next, 24)}@${org.domain}>`;
      }
      const events = failed ? [] : hits(m, next, at, org);
      m.updated_at = events.length ? events[events.length - 1].at : (m.sent_at ?? m.created_at);
      return { message: m, events };
    },
  };
}

/** The message's opens and clicks (counted on it too), in time order. */
function hits(m, next, at, org) {
  if (next() >= (m.broadcast_id === null ? 0.45 : 0.3)) return [];
  const event = (kind, when) => ({
    ...org.eventTemplate,
    id: hex(next, 32),
    org_id: m.org_id,
    message_id: m.id,
    broadcast_id: m.broadcast_id,
    kind,
    link_index: kind === 'click' ? 0 : null,
    url: kind === 'click' ? `https://shop.acme.test/?utm_source=relay&utm_campaign=${m.broadcast_id ?? 'transactional'}` : null,
    class: 'human',
    reason: 'person',
    method: 'GET',
    user_agent: USER_AGENTS[Math.floor(next() * USER_AGENTS.length)],
    ip_hash: hex(next, 32),
    asn: 3320,
    as_organization: 'Deutsche Telekom AG',
    at: isoAt(when),
    created_at: isoAt(when),
    updated_at: isoAt(when),
  });
  const opened = at + 60_000 + next() * 2 * DAY;
  const events = [event('open', opened)];
  Object.assign(m, { opens_total: 1, opens_unique: 1, human_opens: 1, opened_at: isoAt(opened), human_opened_at: isoAt(opened) });
  if (next() < 0.2) {
    const clicked = opened + 5_000 + next() * 600_000;
    events.push(event('click', clicked));
    Object.assign(m, { clicks_total: 1, clicks_unique: 1, human_clicks: 1, clicked_at: isoAt(clicked), human_clicked_at: isoAt(clicked) });
  }
  return events;
}
