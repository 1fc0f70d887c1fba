// POST /operator/organizations: the operator makes an organisation and its first user (npm run smoke uses it). Only
// with the operator token; bad input is a 422 with field messages and makes nothing; a taken domain is a 409; the
// user signs in at once.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { signIn } from '../helpers';
import { operator, platform } from '../signup/helpers';

const body = (domain: string) => ({ name: 'Made by hand', domain, user: { name: 'Ops', email: `ops@${domain}.example`, password: 'Strong-Pass-123!' } });
const count = async (domain: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM organizations WHERE domain = ?').bind(domain).first<{ n: number }>())!.n;

describe('POST /operator/organizations', () => {
  it('makes the organisation and a user who signs in at once; a second time the domain is taken', async () => {
    const made = await operator('POST', '/organizations', body('handmade'));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({ id: expect.any(Number), domain: 'handmade', user_id: expect.any(Number) });
    const tokens = await signIn('handmade', 'ops@handmade.example', 'Strong-Pass-123!');
    expect(tokens.access_token).toBeTruthy();
    const again = await operator('POST', '/organizations', body('handmade'));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect(await count('handmade')).toBe(1);
  });

  it('refuses bad input with field messages and callers without the operator token, making nothing', async () => {
    const bad = await operator('POST', '/organizations', { name: '', domain: 'Not A Domain!', user: { name: 'x', email: 'nope', password: 'short' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['domain', 'name', 'user.email', 'user.password']);
    const stranger = await platform('/api/v1/operator/organizations', { method: 'POST', json: body('sneaky'), token: 'not-the-token' });
    expect([401, 403]).toContain(stranger.status);
    expect(await count('sneaky')).toBe(0);
  });
});
