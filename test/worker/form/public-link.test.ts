import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readPreferencesToken } from '../../../src/lib/templating/preferences-link';
import { FORM_PUBLIC_LIMITS } from '../../../src/modules/form/public/limits';
import { insertContact } from '../channel-helpers';
import { messagesTo, newEmail, newIp, send, setupForm } from './public-helpers';

// "Send me my link" (src/modules/form/public/link-request.ts): a fresh contact-scoped preferences link mailed to a
// contact's address, the same answer and limits for known and unknown addresses.

describe('/preferences (send me my link)', () => {
  it('mails a known contact a fresh preferences link; answers an unknown address the same and sends nothing', async () => {
    const s = await setupForm();
    const known = newEmail('member');
    const id = await insertContact(s.o.orgId, 'Member', [{ type: 'email', value: known }]);
    const page = await send(s.host, '/preferences');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="link-form"');

    const forKnown = await send(s.host, '/preferences', { fields: { email: known.toUpperCase() } });
    const unknown = newEmail('stranger');
    const forUnknown = await send(s.host, '/preferences', { fields: { email: unknown } });
    expect(forKnown.status).toBe(200);
    expect(forKnown.text).toContain('data-testid="link-sent"');
    expect(forKnown.text).toBe(forUnknown.text);

    const [mail, ...more] = await messagesTo(s.o.orgId, known);
    expect(more).toHaveLength(0);
    expect(mail.sender_id).toBe(s.senderId);
    const token = /\/unsubscribe\?p=([A-Za-z0-9._-]+)/.exec(mail.body)?.[1];
    expect(token).toBeTruthy();
    expect(await readPreferencesToken(env, token!)).toEqual({ orgId: s.o.orgId, contactId: id });
    expect(await messagesTo(s.o.orgId, unknown)).toHaveLength(0);

    // Again within the hour: the same answer, no second mail.
    const again = await send(s.host, '/preferences', { fields: { email: known } });
    expect(again.text).toBe(forKnown.text);
    expect(await messagesTo(s.o.orgId, known)).toHaveLength(1);
  });

  it('refuses a bad address (422), a foreign origin (403), a filled honeypot quietly, and an IP past its limit (429)', async () => {
    const s = await setupForm();
    expect((await send(s.host, '/preferences', { fields: { email: 'nope' } })).status).toBe(422);
    expect((await send(s.host, '/preferences', { fields: { email: newEmail() }, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const known = newEmail('trap');
    await insertContact(s.o.orgId, 'Trap', [{ type: 'email', value: known }]);
    const trapped = await send(s.host, '/preferences', { fields: { email: known, website: 'x' } });
    expect(trapped.text).toContain('data-testid="link-sent"');
    expect(await messagesTo(s.o.orgId, known)).toHaveLength(0);
    const ip = newIp();
    for (let i = 0; i < FORM_PUBLIC_LIMITS.linkIp.max; i++)
      expect((await send(s.host, '/preferences', { fields: { email: newEmail() }, ip })).status).toBe(200);
    expect((await send(s.host, '/preferences', { fields: { email: newEmail() }, ip })).status).toBe(429);
  });
});
