// The claim rules (src/modules/domain/claim.ts), key rotation, the daily re-check with its one mail on a break, and
// the senders' domain_state.
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../../src/db/client';
import { decryptSecret } from '../../../src/lib/crypto/secret-box';
import { recheckDomains } from '../../../src/modules/domain/recheck';
import { senderDomainState } from '../../../src/modules/domain/sender-state';
import { createIntegration, createSender, newOrg, row, SMTP_INPUT, TWILIO_INPUT } from '../channel-helpers';
import { addUser, mailsTo } from '../helpers';
import { publish, recordOf, stubResolver, uniqueDomain, unpublish } from './domain-helpers';
import type { FakeAnswer } from './fake-doh';

let zone: Record<string, FakeAnswer>;
beforeEach(() => {
  zone = stubResolver();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

type Org = Awaited<ReturnType<typeof newOrg>>;

async function verifiedDomain(o: Org, name: string) {
  const created = (await o.api('POST', '/domain', { domain: name })).body.data;
  publish(zone, created);
  const res = await o.api('POST', `/domain/${created.id}/check`);
  expect(res.body.data.status).toBe('verified');
  return res.body.data;
}

const setChecks = async (id: number, patch: Record<string, unknown>) => {
  const current = (await row<{ checks: string }>('sending_domains', id))!;
  await env.DB.prepare('UPDATE sending_domains SET checks = ? WHERE id = ?')
    .bind(JSON.stringify({ ...JSON.parse(current.checks), ...patch }), id)
    .run();
};

describe('claim rules', () => {
  it('lets several organisations add a name, only one verify it: the other is refused 409 taken', async () => {
    const a = await newOrg('cla');
    const b = await newOrg('clb');
    const name = uniqueDomain('shared');
    const held = await verifiedDomain(a, name);
    const rival = (await b.api('POST', '/domain', { domain: name })).body.data;
    expect(rival.status).toBe('pending');
    // Its own DKIM record name: the two organisations' keys never meet at one selector.
    expect(rival.dkim_selector).not.toBe(held.dkim_selector);
    publish(zone, rival);
    const res = await b.api('POST', `/domain/${rival.id}/check`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'taken', message: 'This domain is verified by another organisation' });
    expect((await b.api('GET', `/domain/${rival.id}`)).body.data.status).toBe('pending');
    expect((await a.api('GET', `/domain/${held.id}`)).body.data.status).toBe('verified');
  });

  it("takes the name over once the holder's verification record has been missing for 72 hours; the holder's row is lost and told", async () => {
    const a = await newOrg('cla');
    const b = await newOrg('clb');
    const name = uniqueDomain('takeover');
    const held = await verifiedDomain(a, name);
    const rival = (await b.api('POST', '/domain', { domain: name })).body.data;
    // Only B's token at the verification name now (and B's key records).
    unpublish(zone, held, 'verification');
    publish(zone, rival, ['verification', 'dkim']);
    let res = await b.api('POST', `/domain/${rival.id}/check`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('taken');
    // The holder's clock started with that lookup; 71 hours is not yet enough.
    const started = JSON.parse((await row<{ checks: string }>('sending_domains', held.id))!.checks).verification_missing_since;
    expect(started).not.toBeNull();
    await setChecks(held.id, { verification_missing_since: new Date(Date.now() - 71 * 3600_000).toISOString() });
    expect((await b.api('POST', `/domain/${rival.id}/check`)).status).toBe(409);

    await setChecks(held.id, { verification_missing_since: new Date(Date.now() - 72 * 3600_000 - 1000).toISOString() });
    res = await b.api('POST', `/domain/${rival.id}/check`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('verified');
    const lost = (await a.api('GET', `/domain/${held.id}`)).body.data;
    expect(lost).toMatchObject({ status: 'lost', verified_at: null, broken_since: null });
    const mails = await mailsTo(`owner@${a.org}.test`);
    expect(mails.map((m) => m.subject)).toEqual([`${name} is now verified by another organisation`]);
    expect(await mailsTo(`owner@${b.org}.test`)).toEqual([]);

    // A proves control again: now B holds it, so A is the one refused.
    publish(zone, held, ['verification']);
    res = await a.api('POST', `/domain/${held.id}/check`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('taken');
  });

  it("refuses a name under another organisation's verified domain (409 subdomainTaken); the holder may add its own subdomains", async () => {
    const a = await newOrg('cla');
    const b = await newOrg('clb');
    const name = uniqueDomain('parent');
    // B adds the subdomain before A verifies the parent: refused when B's check would verify it.
    const early = (await b.api('POST', '/domain', { domain: `news.${name}` })).body.data;
    await verifiedDomain(a, name);
    let res = await b.api('POST', '/domain', { domain: `mail.${name}` });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'subdomainTaken', message: 'This domain is under a domain another organisation verified' });
    publish(zone, early);
    res = await b.api('POST', `/domain/${early.id}/check`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('subdomainTaken');

    const own = await verifiedDomain(a, `mail.${name}`);
    expect(own.domain).toBe(`mail.${name}`);
  });
});

describe('key rotation', () => {
  it('puts a new selector and key beside the old, refuses a second rotation, and promotes the new key once its record is seen', async () => {
    const o = await newOrg('rot');
    const pending = (await o.api('POST', '/domain', { domain: uniqueDomain('rot') })).body.data;
    let res = await o.api('POST', `/domain/${pending.id}/rotate-key`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('notVerified');

    const domain = await verifiedDomain(o, uniqueDomain('rot'));
    res = await o.api('POST', `/domain/${domain.id}/rotate-key`);
    expect(res.status).toBe(200);
    const rotating = res.body.data;
    expect(rotating.dkim_selector).toBe(domain.dkim_selector);
    expect(rotating.next_dkim_selector).toMatch(/^relay\d{6}[a-z]$/);
    expect(rotating.next_dkim_selector).not.toBe(domain.dkim_selector);
    expect(rotating.records.map((r: { kind: string }) => r.kind)).toEqual(['verification', 'dkim', 'dkim_next', 'spf', 'dmarc']);
    expect(recordOf(rotating, 'dkim_next')).toMatchObject({
      status: 'unchecked',
      required: false,
      name: `${rotating.next_dkim_selector}._domainkey.${domain.domain}`,
    });
    res = await o.api('POST', `/domain/${domain.id}/rotate-key`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'rotationPending' });

    // Not yet published: the old key stays.
    res = await o.api('POST', `/domain/${domain.id}/check`);
    expect(res.body.data).toMatchObject({ dkim_selector: domain.dkim_selector, next_dkim_selector: rotating.next_dkim_selector, status: 'verified' });
    expect(recordOf(res.body.data, 'dkim_next').status).toBe('missing');

    const sealedNext = (await row<{ next_dkim_private_key: string }>('sending_domains', domain.id))!.next_dkim_private_key;
    publish(zone, rotating, ['dkim_next']);
    res = await o.api('POST', `/domain/${domain.id}/check`);
    expect(res.body.data).toMatchObject({ dkim_selector: rotating.next_dkim_selector, next_dkim_selector: null, status: 'verified' });
    expect(res.body.data.records.map((r: { kind: string }) => r.kind)).toEqual(['verification', 'dkim', 'spf', 'dmarc']);
    expect(recordOf(res.body.data, 'dkim')).toMatchObject({ status: 'ok', value: recordOf(rotating, 'dkim_next').value });
    const stored = (await row<{ dkim_private_key: string; next_dkim_private_key: string | null }>('sending_domains', domain.id))!;
    expect(stored).toMatchObject({ dkim_private_key: sealedNext, next_dkim_private_key: null });
    expect(await decryptSecret(env.SECRETS_KEY, stored.dkim_private_key)).toContain('BEGIN PRIVATE KEY');
  });
});

describe('daily re-check', () => {
  const FAR = 1000;
  const later = (hours: number) => new Date(Date.now() + hours * 3600_000);

  it('re-checks domains checked more than a day ago; a break mails every user once, unavailable changes nothing, a fix clears it', async () => {
    const o = await newOrg('rec');
    const second = `second@${o.org}.test`;
    await addUser(o.orgId, second);
    const domain = await verifiedDomain(o, uniqueDomain('rec'));
    const db = createDb(env.DB);

    // Checked just now: not due.
    unpublish(zone, domain, 'dkim');
    await recheckDomains(db, env, new Date(), FAR);
    expect((await o.api('GET', `/domain/${domain.id}`)).body.data.status).toBe('verified');

    await recheckDomains(db, env, later(25), FAR);
    let data = (await o.api('GET', `/domain/${domain.id}`)).body.data;
    expect(data.status).toBe('broken');
    expect(data.broken_since).not.toBeNull();
    expect(recordOf(data, 'dkim').status).toBe('missing');
    const subject = `${domain.domain}: a DNS record of your sending domain is broken`;
    for (const to of [`owner@${o.org}.test`, second]) expect((await mailsTo(to)).map((m) => m.subject)).toEqual([subject]);
    expect((await mailsTo(second))[0].text).toContain('the DKIM key record');

    // Still broken a day later: no second mail.
    await recheckDomains(db, env, later(50), FAR);
    expect(await mailsTo(second)).toHaveLength(1);
    expect((await row<{ broken_notified_at: string | null }>('sending_domains', domain.id))!.broken_notified_at).not.toBeNull();

    // Fixed: broken_since and the notice cleared.
    publish(zone, domain, ['dkim']);
    await recheckDomains(db, env, later(75), FAR);
    data = (await o.api('GET', `/domain/${domain.id}`)).body.data;
    expect(data).toMatchObject({ status: 'verified', broken_since: null });
    expect((await row<{ broken_notified_at: string | null }>('sending_domains', domain.id))!.broken_notified_at).toBeNull();
  });

  it('never breaks a domain, nor mails, when the resolver could not say', async () => {
    const o = await newOrg('rec');
    const domain = await verifiedDomain(o, uniqueDomain('unavail'));
    zone[`${recordOf(domain, 'verification').name} TXT`] = { Status: 2 };
    zone[`${recordOf(domain, 'dkim').name} TXT`] = { http: 503 };
    await recheckDomains(createDb(env.DB), env, later(25), FAR);
    const data = (await o.api('GET', `/domain/${domain.id}`)).body.data;
    expect(data).toMatchObject({ status: 'verified', broken_since: null });
    expect(recordOf(data, 'verification')).toMatchObject({ status: 'unavailable', reason: 'SERVFAIL' });
    expect(recordOf(data, 'dkim')).toMatchObject({ status: 'unavailable', reason: 'the resolver answered HTTP 503' });
    expect(await mailsTo(`owner@${o.org}.test`)).toEqual([]);
  });
});

describe('senders and domains', () => {
  it('answers each sender its domain_state: verified on or under a verified domain, broken, unverified, unknown for SMS', async () => {
    const o = await newOrg('sdr');
    const name = uniqueDomain('snd');
    const smtp = await createIntegration(o, SMTP_INPUT);
    const twilio = await createIntegration(o, TWILIO_INPUT);
    await createSender(o, { integration_id: smtp.id, type: 'email', value: `hello@${name}` });
    await createSender(o, { integration_id: smtp.id, type: 'email', value: `news@mail.${name}` });
    await createSender(o, { integration_id: smtp.id, type: 'email', value: 'other@elsewhere.example' });
    await createSender(o, { integration_id: twilio.id, type: 'phone', value: '+15005550006' });
    const states = async () =>
      Object.fromEntries(
        (await o.api('GET', '/sender?page_size=100')).body.items.map((s: { value: string; domain_state: string }) => [s.value, s.domain_state]),
      );
    const expected = (state: string) => ({
      [`hello@${name}`]: state,
      [`news@mail.${name}`]: state,
      'other@elsewhere.example': 'unverified',
      '+15005550006': 'unknown',
    });
    expect(await states()).toEqual(expected('unverified'));
    const domain = await verifiedDomain(o, name);
    expect(domain.senders).toBe(2);
    expect(await states()).toEqual(expected('verified'));
    unpublish(zone, domain, 'verification');
    await o.api('POST', `/domain/${domain.id}/check`);
    expect(await states()).toEqual(expected('broken'));
  });

  it('lets the most specific proved domain decide', () => {
    const domains = [
      { domain: 'example.com', verifiedAt: '2026-01-01T00:00:00.000Z', brokenSince: null },
      { domain: 'mail.example.com', verifiedAt: '2026-01-01T00:00:00.000Z', brokenSince: '2026-02-01T00:00:00.000Z' },
      { domain: 'pending.example.com', verifiedAt: null, brokenSince: null },
    ];
    expect(senderDomainState({ type: 'email', value: 'a@mail.example.com' }, domains)).toBe('broken');
    expect(senderDomainState({ type: 'email', value: 'a@pending.example.com' }, domains)).toBe('verified');
    expect(senderDomainState({ type: 'email', value: 'a@notexample.com' }, domains)).toBe('unverified');
    expect(senderDomainState({ type: 'phone', value: '+15005550006' }, domains)).toBe('unknown');
  });
});
