import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { FORM_PUBLIC_LIMITS } from '../../../src/modules/form/public/limits';
import { consentsOf, contactOf, fillLimit, messagesTo, newEmail, newIp, setupForm, signUp } from './public-helpers';

// Every limit of the hosted form (src/modules/form/public/limits.ts): per IP (tokenless: tight), one confirmation
// mail per address and form an hour, per form, per organisation, and the platform's hourly cap on mails.

const L = FORM_PUBLIC_LIMITS;

describe('hosted form limits', () => {
  it(`lets one IP post ${L.ipTokenless.max} times an hour without a token, then answers 429`, async () => {
    const s = await setupForm();
    const ip = newIp();
    for (let i = 0; i < L.ipTokenless.max; i++) expect((await signUp(s, { email: newEmail() }, { ip })).status).toBe(200);
    const email = newEmail();
    const refused = await signUp(s, { email }, { ip });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('data-testid="form-alert"');
    expect(await contactOf(s.o.orgId, email)).toBeNull();
    // Another visitor is not held up.
    expect((await signUp(s, { email: newEmail() })).status).toBe(200);
  });

  it('sends at most one confirmation mail per address and form an hour, answering the repeat the same', async () => {
    const s = await setupForm();
    const email = newEmail();
    const first = await signUp(s, { email });
    const second = await signUp(s, { email });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(await messagesTo(s.o.orgId, email)).toHaveLength(1);
    expect(await consentsOf((await contactOf(s.o.orgId, email))!.id)).toHaveLength(1);
    // Another form of the organisation may send its own.
    const other = await setupForm();
    expect((await signUp(other, { email })).status).toBe(200);
    expect(await messagesTo(other.o.orgId, email)).toHaveLength(1);
  });

  it('answers 429 past the form, the organisation and the platform caps, writing nothing', async () => {
    const byForm = await setupForm();
    await fillLimit(`form:formTokenless:${byForm.formId}`, L.formTokenless.max);
    const a = newEmail();
    expect((await signUp(byForm, { email: a })).status).toBe(429);
    expect(await contactOf(byForm.o.orgId, a)).toBeNull();

    const byOrg = await setupForm();
    await fillLimit(`form:orgTokenless:${byOrg.o.orgId}`, L.orgTokenless.max);
    const b = newEmail();
    expect((await signUp(byOrg, { email: b })).status).toBe(429);
    expect(await contactOf(byOrg.o.orgId, b)).toBeNull();

    const byPlatform = await setupForm();
    await fillLimit('form:platformMails:all', L.platformMails.max);
    const c = newEmail();
    expect((await signUp(byPlatform, { email: c })).status).toBe(503);
    expect(await contactOf(byPlatform.o.orgId, c)).toBeNull();
    expect(await messagesTo(byPlatform.o.orgId)).toHaveLength(0);
    await env.DB.prepare("DELETE FROM rate_limits WHERE key = 'form:platformMails:all'").run();
  });
});
