import { ProviderError, type ProviderEndpoints } from './endpoints';
import type { ProfileSource, ResolvedProvider } from './providers';

/** Who the person is at the provider: a stable subject, and the email and name shown next to the link. */
export interface SocialProfile {
  subject: string;
  email: string | null;
  name: string | null;
}

const GITHUB_API = 'https://api.github.com';

const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null);

async function getJson(url: string, accessToken: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', 'user-agent': 'relay-social-login' },
    });
  } catch (error) {
    throw new ProviderError(`profile request failed: ${String(error)}`);
  }
  if (!res.ok) throw new ProviderError(`profile request answered ${res.status}`);
  try {
    return await res.json();
  } catch {
    throw new ProviderError('profile answer is not JSON');
  }
}

/** GitHub: the numeric user id is the subject; the primary verified address from /user/emails when /user has none. */
async function githubProfile(accessToken: string): Promise<SocialProfile> {
  const user = (await getJson(`${GITHUB_API}/user`, accessToken)) as Record<string, unknown> | null;
  if (typeof user?.id !== 'number' && typeof user?.id !== 'string') throw new ProviderError('GitHub profile has no id');
  let email = text(user.email, 254);
  if (!email) {
    const emails = await getJson(`${GITHUB_API}/user/emails`, accessToken).catch(() => []);
    const list = Array.isArray(emails) ? (emails as { email?: unknown; primary?: unknown; verified?: unknown }[]) : [];
    const primary = list.find((e) => e.primary && e.verified) ?? list.find((e) => e.verified);
    email = text(primary?.email, 254);
  }
  return { subject: String(user.id), email, name: text(user.name, 200) ?? text(user.login, 200) };
}

/** OpenID Connect: sub, email and name from the userinfo endpoint. */
async function userinfoProfile(endpoints: ProviderEndpoints, accessToken: string): Promise<SocialProfile> {
  if (!endpoints.userinfo) throw new ProviderError('provider has no userinfo endpoint');
  const info = (await getJson(endpoints.userinfo, accessToken)) as Record<string, unknown> | null;
  const subject = text(info?.sub, 255);
  if (!subject) throw new ProviderError('userinfo has no sub');
  return { subject, email: text(info?.email, 254), name: text(info?.name, 200) };
}

const READERS: Record<ProfileSource, (endpoints: ProviderEndpoints, accessToken: string) => Promise<SocialProfile>> = {
  github: (_endpoints, token) => githubProfile(token),
  userinfo: userinfoProfile,
};

/** Reads the signed-in person's profile from the provider with the access token just obtained. */
export function fetchProfile(provider: ResolvedProvider, endpoints: ProviderEndpoints, accessToken: string): Promise<SocialProfile> {
  return READERS[provider.profile](endpoints, accessToken);
}
