// The features locked in the shared demo organisation: the one place they are listed (spec sections 1 and 6:
// login and password editing disabled, account forms read-only). Paths are relative to /api/v1; `:x` is one
// path segment, a trailing `/*` is anything below. Audience and template editing stays open: it resets.

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface LockedFeature {
  methods: readonly Method[];
  path: string;
  /** An extra condition on the JSON body (e.g. only the `link` action of a social authorize). */
  body?: (body: unknown) => boolean;
  why: string;
}

const WRITES: readonly Method[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

const actionIs = (action: string) => (body: unknown) => typeof body === 'object' && body !== null && (body as Record<string, unknown>).action === action;

export const LOCKED_FEATURES: readonly LockedFeature[] = [
  { methods: ['PUT', 'PATCH', 'DELETE'], path: '/internal-user/:id', why: 'profile edit and account deletion' },
  { methods: ['PUT', 'PATCH', 'DELETE'], path: '/internal-user/:id/password', why: 'password change or removal' },
  { methods: ['POST'], path: '/internal-user/password-remind', why: 'password reset mail' },
  { methods: ['POST'], path: '/internal-user/password-reset', why: 'password reset' },
  { methods: WRITES, path: '/organization', why: 'organisation edit' },
  { methods: WRITES, path: '/organization/*', why: 'organisation edit' },
  { methods: WRITES, path: '/internal-api-key', why: 'API keys' },
  { methods: WRITES, path: '/internal-api-key/*', why: 'API keys' },
  { methods: WRITES, path: '/organization-api-key', why: 'organisation API keys' },
  { methods: WRITES, path: '/organization-api-key/*', why: 'organisation API keys' },
  { methods: ['DELETE'], path: '/session', why: 'ending sessions' },
  { methods: ['DELETE'], path: '/session/*', why: 'ending sessions' },
  { methods: ['POST'], path: '/social/:provider/authorize', body: actionIs('link'), why: 'linking a social account' },
  { methods: ['POST'], path: '/social/:provider/link', why: 'linking a social account' },
  { methods: ['DELETE'], path: '/social/:provider', why: 'unlinking a social account' },
  { methods: WRITES, path: '/integration', why: 'integrations reach real servers' },
  { methods: WRITES, path: '/integration/*', why: 'integrations reach real servers' },
  { methods: ['POST'], path: '/sender', why: 'senders' },
  { methods: ['PUT', 'PATCH'], path: '/sender/:id', why: 'senders' },
  { methods: ['POST'], path: '/template/:id/test', why: 'test messages send real mail' },
  // Broadcasts can be looked at in the demo (and their recipients previewed) but never sent from it.
  { methods: ['POST'], path: '/broadcast', why: 'broadcasts send real mail' },
  { methods: ['POST'], path: '/broadcast/:id/:action', why: 'broadcasts send real mail' },
];

const compiled = LOCKED_FEATURES.map((feature) => {
  const pattern = feature.path
    .split('/')
    .map((part) => (part === '*' ? '.+' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { feature, regex: new RegExp(`^${pattern}/?$`) };
});

/** The locked features a method and path (relative to /api/v1) fall under, before any body condition. */
export function lockedFeaturesFor(method: string, path: string): LockedFeature[] {
  const upper = method.toUpperCase();
  return compiled.filter(({ feature, regex }) => (feature.methods as readonly string[]).includes(upper) && regex.test(path)).map((m) => m.feature);
}
