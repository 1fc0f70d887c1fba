import { describe, expect, it } from 'vitest';
import { EXAMPLE_AUDIENCE } from '../../../src/modules/contact/seed-example';
import { channels, createTemplate, insertContact, newOrg, row } from '../channel-helpers';

// Issue 35, finding 5: with no contact chosen, a preview and a test message fill the placeholders with their
// `default:` values (the template's own fallbacks), never with some contact's data (the newest one's).

const BODY = '<p>Hello {{ contact.name | default: "there" }}, from {{ contact.fields.city | default: "your town" }}</p>';

describe('placeholders with no contact chosen', () => {
  it("renders the preview with the template's default values, not the newest contact's data", async () => {
    const o = await newOrg();
    await insertContact(o.orgId, 'Zed Newest', [{ type: 'email', value: 'zed@example.com' }]);
    const t = await createTemplate(o, { type: 'html', name: 'Defaults', subject: 'Hi {{ contact.name | default: "friend" }}', body: BODY });
    const res = await o.api('POST', `/template/${t.id}/preview`, { contact_id: null });
    expect(res.status).toBe(200);
    expect(res.body.data.subject).toBe('Hi friend');
    expect(res.body.data.body).toBe('<p>Hello there, from your town</p>');
    expect(res.text).not.toContain('Zed');
  });

  it('sends a test message rendered with the default values and tied to no contact', async () => {
    const o = await newOrg();
    const { email } = await channels(o);
    await insertContact(o.orgId, 'Zed Newest', [{ type: 'email', value: 'zed@example.com' }]);
    const t = await createTemplate(o, { type: 'html', name: 'Defaults', subject: 'Hi {{ contact.name | default: "friend" }}', body: BODY });
    const res = await o.api('POST', `/template/${t.id}/test`, { sender_id: email.id, to: 'me@example.com' });
    expect(res.status, res.text).toBe(202);
    const message = await row<{ subject: string; body: string; contact_id: number | null }>('messages', res.body.data.id);
    expect(message).toMatchObject({ subject: 'Hi friend', body: '<p>Hello there, from your town</p>', contact_id: null });
  });

  it('gives the example templates fallbacks, so a first test message without a contact reads well', async () => {
    const o = await newOrg();
    for (const example of EXAMPLE_AUDIENCE.templates) {
      const t = await createTemplate(o, { type: example.type, name: example.name, subject: example.subject, body: example.body });
      const { subject, body } = (await o.api('POST', `/template/${t.id}/preview`, {})).body.data;
      expect(`${subject ?? ''}|${body}`).not.toMatch(/Hello !|Hi ,|Welcome, \|/);
      expect(body).toMatch(/there/);
    }
  });
});
