import { DOMAIN_MESSAGES, type DomainRecord, type DomainRow } from '@shared/contracts/domain';
import { MESSAGES } from '@shared/messages';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';

const NOW = '2026-11-01T10:00:00.000Z';

/** A 2048-bit key's DKIM value is longer than one 255-byte string: the API gives it whole and split. */
const DKIM_VALUE = `v=DKIM1; k=rsa; p=${'A'.repeat(380)}`;
const DKIM_STRINGS = [DKIM_VALUE.slice(0, 255), DKIM_VALUE.slice(255)];

const record = (kind: DomainRecord['kind'], name: string, value: string | null, extra: Partial<DomainRecord> = {}): DomainRecord => {
  const strings = value === null ? [] : value.length > 255 ? [value.slice(0, 255), value.slice(255)] : [value];
  return {
    kind,
    type: 'TXT',
    name,
    value,
    strings,
    zone_value: value === null ? null : strings.map((s) => `"${s}"`).join(' '),
    status: 'unchecked',
    required: kind === 'verification' || kind === 'dkim',
    ...extra,
  };
};

/** A verified domain whose records were all found, a DMARC policy of none. */
export const VERIFIED: DomainRow = {
  id: 1,
  domain: 'acme.test',
  status: 'verified',
  verified_at: NOW,
  dkim_selector: 'relay1',
  next_dkim_selector: null,
  records: [
    record('verification', '_relay.acme.test', 'relay-verify=abc123', { status: 'ok' }),
    record('dkim', 'relay1._domainkey.acme.test', DKIM_VALUE, { status: 'ok' }),
    record('spf', 'acme.test', null, { status: 'unchecked', note: 'The relay is unknown' }),
    record('dmarc', '_dmarc.acme.test', 'v=DMARC1; p=none; rua=mailto:dmarc@acme.test', { status: 'ok' }),
  ],
  alignment: { dkim: 'aligned', spf: 'not_aligned', dmarc_policy: 'none' },
  checked_at: NOW,
  broken_since: null,
  senders: 2,
  created_at: NOW,
  updated_at: NOW,
};

/** A domain proved once whose DKIM record is now wrong and whose DMARC lookup timed out. */
export const BROKEN: DomainRow = {
  ...VERIFIED,
  id: 2,
  domain: 'news.example.co.uk',
  status: 'broken',
  broken_since: NOW,
  records: [
    record('verification', '_relay.news.example.co.uk', 'relay-verify=def456', { status: 'ok' }),
    record('dkim', 'relay1._domainkey.news.example.co.uk', DKIM_VALUE, {
      status: 'wrong',
      found: ['v=DKIM1; k=rsa; p=OLDKEY'],
      problem: 'key_differs',
    }),
    record('spf', 'news.example.co.uk', 'v=spf1 include:_spf.mailer.test ~all', { status: 'missing' }),
    record('dmarc', '_dmarc.news.example.co.uk', 'v=DMARC1; p=none', { status: 'unavailable', reason: 'timeout' }),
  ],
  alignment: { dkim: 'not_signing', spf: 'not_aligned', dmarc_policy: null },
  senders: 1,
};

/** A domain just added: nothing checked yet. */
export const PENDING: DomainRow = {
  ...VERIFIED,
  id: 3,
  domain: 'shop.acme.test',
  status: 'pending',
  verified_at: null,
  records: VERIFIED.records.map((r) => ({ ...r, name: r.name.replace('acme.test', 'shop.acme.test'), status: 'unchecked' })),
  alignment: null,
  checked_at: null,
  senders: 0,
};

export { DKIM_STRINGS, DKIM_VALUE };

/** Email senders on a verified, an unverified and a broken domain, and an SMS sender. */
export const DOMAIN_SENDERS = [
  { id: 1, type: 'email', value: 'hello@acme.test', name: 'Acme', domain_state: 'verified' },
  { id: 2, type: 'email', value: 'news@other.test', name: 'Other', domain_state: 'unverified' },
  { id: 3, type: 'email', value: 'list@news.example.co.uk', name: 'List', domain_state: 'broken' },
  { id: 4, type: 'phone', value: '+15005550006', name: null, domain_state: 'unknown' },
].map((s) => ({ ...s, integration_id: s.type === 'email' ? 1 : 2, integration: null, note: null, priority: s.id, created_at: NOW, updated_at: NOW }));

const list = (items: unknown[]) => json(200, { items, meta: { total: items.length, page: 1, page_size: 100, total_pages: items.length ? 1 : 0 } });
const notFound = () => json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
const invalid = (fields: Record<string, string[]>) => json(422, { error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields } });

/**
 * The shell's fake API plus an in-memory /domain as the contract (src/shared/contracts/domain.ts) describes it, and
 * the senders, templates and subscriptions the senders screen and the broadcast form read.
 */
export function fakeDomainApi(options: { domains?: DomainRow[]; afterCheck?: (row: DomainRow) => DomainRow } = {}) {
  const base = fakeApi();
  const domains = (options.domains ?? [VERIFIED, BROKEN]).map((d) => structuredClone(d));
  let nextId = 50;

  const handle = (call: FetchCall): Response | null => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/domain' && call.method === 'GET') return list(domains);
    if (path === '/domain' && call.method === 'POST') {
      const name = String((call.body as { domain?: unknown }).domain ?? '')
        .trim()
        .toLowerCase();
      if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(name)) return invalid({ domain: [DOMAIN_MESSAGES.domain] });
      if (name === 'taken.test') return invalid({ domain: [DOMAIN_MESSAGES.taken] });
      if (domains.some((d) => d.domain === name)) return invalid({ domain: [DOMAIN_MESSAGES.exists] });
      const row: DomainRow = { ...structuredClone(PENDING), id: nextId++, domain: name };
      domains.push(row);
      return json(201, { data: row });
    }
    const one = /^\/domain\/(\d+)(\/check|\/rotate-key)?$/.exec(path);
    if (!one) return null;
    const index = domains.findIndex((d) => d.id === Number(one[1]));
    if (index < 0) return notFound();
    const row = domains[index];
    if (!one[2] && call.method === 'GET') return json(200, { data: row });
    if (!one[2] && call.method === 'DELETE') {
      domains.splice(index, 1);
      return json(200, { data: { deleted: 1 } });
    }
    if (one[2] === '/check' && call.method === 'POST') {
      domains[index] = options.afterCheck ? options.afterCheck(row) : { ...row, checked_at: '2026-11-02T09:30:00.000Z' };
      return json(200, { data: domains[index] });
    }
    if (one[2] === '/rotate-key' && call.method === 'POST') {
      if (row.next_dkim_selector) return json(409, { error: { code: 'conflict', message: DOMAIN_MESSAGES.rotationPending } });
      const next = record('dkim_next', `relay2._domainkey.${row.domain}`, `v=DKIM1; k=rsa; p=${'B'.repeat(380)}`, { required: false });
      domains[index] = { ...row, next_dkim_selector: 'relay2', records: [...row.records, next] };
      return json(200, { data: domains[index] });
    }
    return null;
  };

  const other = (call: FetchCall): Response | null => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/sender') return list(DOMAIN_SENDERS);
    if (path === '/template') return list([{ id: 3, type: 'email', name: 'News' }]);
    if (path === '/subscription' || path === '/field' || path === '/integration') return list([]);
    if (path === '/broadcast/preview') return json(200, { data: { total: 0, skipped: 0, sample: [] } });
    return null;
  };

  const mock = mockFetch(
    async (call) =>
      handle(call) ??
      other(call) ??
      base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  return { ...mock, domains: () => domains };
}
