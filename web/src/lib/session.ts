import type { AuthMethod, CurrentUser, TokenResponse } from '@shared/contracts/auth';
import type { ItemBody } from '@shared/errors';
import type { ApiClient, AuthController } from './api-client';
import { clearAllFieldErrors, type JotaiStore } from './field-errors';
import { currentUserAtom, sessionAtom, sessionReadyAtom } from './session-state';
import { clearStoredSession, EMPTY_SESSION, readSession, writeSession, type KeyValueStorage, type StoredSession } from './storage';

export const AUTH_PATHS = {
  tokenCreate: '/internal-auth/token-create',
  tokenRefresh: '/internal-auth/token-refresh',
  logout: '/internal-auth/logout',
  me: '/internal-user/me',
} as const;

const DEFAULT_METHOD: AuthMethod['details'] = { header: 'Authorization', prefix: 'Bearer' };

export interface SessionDeps {
  client: ApiClient;
  store: JotaiStore;
  storage: KeyValueStorage;
  /** Goes to a console path (after sign-in and sign-out: the root). */
  navigate: (to: string) => void;
  now: () => number;
  refreshThresholdMs: number;
  /** Called whenever the session is cleared (sign-out, failed refresh): drops cached server data. */
  onCleared?: () => void;
}

/** The client session of spec section 4: restore, refresh (single flight), user fetch, sign-in, logout. */
export class Session implements AuthController {
  private refreshing: Promise<boolean> | null = null;
  private fetchingUser: Promise<CurrentUser | null> | null = null;
  private signingIn = false;
  private methods: AuthMethod[] = [];
  private refreshHeader = 'x-refresh';

  constructor(private readonly deps: SessionDeps) {
    deps.client.setAuth(this);
  }

  /** Current tokens. */
  tokens(): StoredSession {
    return this.deps.store.get(sessionAtom);
  }

  /** The loaded user, if any. */
  user(): CurrentUser | null {
    return this.deps.store.get(currentUserAtom);
  }

  /** True while auth fetching (sign-in, user fetch) or refreshing runs: other requests wait. */
  isBusy(): boolean {
    return this.refreshing !== null || this.fetchingUser !== null || this.signingIn;
  }

  /** Takes the auth methods (header + prefix per auth type) and refresh header from /init/guest. */
  setAuthMethods(methods: AuthMethod[], refreshHeader?: string): void {
    this.methods = methods;
    if (refreshHeader) this.refreshHeader = refreshHeader;
  }

  /** The current access token. */
  accessToken(): string | null {
    return this.tokens().accessToken;
  }

  /** The auth header of the stored auth type's method (default Authorization: Bearer <token>). */
  authorization(): { header: string; value: string } | null {
    const { accessToken, authTypeId } = this.tokens();
    if (!accessToken) return null;
    const details = this.methods.find((m) => m.id === authTypeId)?.details ?? DEFAULT_METHOD;
    return { header: details.header || DEFAULT_METHOD.header, value: `${details.prefix ? `${details.prefix} ` : ''}${accessToken}` };
  }

  /** Restores the session from local storage: refresh when the token expires within the threshold, then load the user. */
  async restore(): Promise<void> {
    const stored = readSession(this.deps.storage);
    this.deps.store.set(sessionAtom, stored);
    try {
      if (!stored.accessToken) return;
      if (this.expiresSoon(stored)) {
        const ok = await this.refresh({ onFailure: 'clear' });
        if (!ok) return;
      }
      if (!this.user()) await this.fetchUser();
    } finally {
      this.deps.store.set(sessionReadyAtom, true);
    }
  }

  /** True when the token expires within the refresh threshold (a token without a known expiry never counts). */
  expiresSoon(tokens: StoredSession = this.tokens()): boolean {
    const expiresAt = tokens.expiresAt ? Date.parse(tokens.expiresAt) : NaN;
    return Number.isFinite(expiresAt) && expiresAt - this.deps.now() < this.deps.refreshThresholdMs;
  }

  /** A usable access token for a new connection (the live socket): refreshed first when it is about to expire, null when there is none. */
  async freshToken(): Promise<string | null> {
    if (!this.accessToken()) return null;
    if (this.expiresSoon() && !(await this.refresh())) return null;
    return this.accessToken();
  }

  /**
   * Exchanges the refresh token for a new pair (the server rotates it). One refresh runs at a time; callers
   * share it. On failure the session ends: logout (default) or, at startup, a silent clear.
   */
  refresh(options: { onFailure?: 'logout' | 'clear' } = {}): Promise<boolean> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = this.runRefresh(options.onFailure ?? 'logout').finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** After a 401: refresh, unless another call already replaced the rejected token. */
  async renew(rejectedToken: string | null): Promise<boolean> {
    if (this.refreshing) return this.refreshing;
    const current = this.accessToken();
    if (current && current !== rejectedToken) return true;
    return this.refresh();
  }

  /** Loads the current user (GET /internal-user/me); concurrent callers share one call. */
  fetchUser(): Promise<CurrentUser | null> {
    if (this.fetchingUser) return this.fetchingUser;
    this.fetchingUser = this.deps.client
      .get<ItemBody<CurrentUser>>(AUTH_PATHS.me, undefined, { bypassWait: true })
      .then((body) => {
        this.deps.store.set(currentUserAtom, body.data);
        return body.data;
      })
      .catch(() => null)
      .finally(() => {
        this.fetchingUser = null;
      });
    return this.fetchingUser;
  }

  /** Signs in with login and password, loads the user, then goes to the root. Errors (401, 422, 429) propagate. */
  async signIn(username: string, password: string): Promise<void> {
    this.signingIn = true;
    let user: CurrentUser | null = null;
    try {
      const tokens = await this.deps.client.post<TokenResponse>(AUTH_PATHS.tokenCreate, { username, password }, { guest: true, bypassWait: true });
      this.acceptTokens(tokens);
      user = await this.fetchUser();
    } finally {
      this.signingIn = false;
    }
    if (!user) {
      // Signed in but the user could not be loaded: do not leave half a session behind a silent form.
      this.clear();
      throw new Error('user could not be loaded');
    }
    this.deps.navigate('/');
  }

  /** Stores a token pair (sign-in, refresh, social-login callback) with its expiry as ISO time. */
  acceptTokens(tokens: TokenResponse): void {
    const session: StoredSession = {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: new Date(this.deps.now() + Number(tokens.expires_in) * 1000).toISOString(),
      authTypeId: Number.isFinite(Number(tokens.auth_type_id)) ? Number(tokens.auth_type_id) : null,
    };
    writeSession(this.deps.storage, session);
    this.deps.store.set(sessionAtom, session);
  }

  /**
   * Signs out: always clears the session and goes to the root at once; the server is told in the background
   * (with the headers of the session being ended), so a stalled connection cannot keep anyone signed in.
   */
  async logout(options: { remote?: boolean } = {}): Promise<void> {
    const auth = (options.remote ?? true) ? this.authorization() : null;
    this.clear();
    this.deps.navigate('/');
    if (auth) {
      await this.deps.client
        .post(AUTH_PATHS.logout, undefined, { guest: true, noAuthRetry: true, bypassWait: true, noLog: true, headers: { [auth.header]: auth.value } })
        .catch(() => undefined);
    }
  }

  /** Forgets tokens, user and every cached server answer (the next user must not see this one's data). */
  clear(): void {
    clearStoredSession(this.deps.storage);
    this.deps.store.set(sessionAtom, EMPTY_SESSION);
    this.deps.store.set(currentUserAtom, null);
    clearAllFieldErrors(this.deps.store);
    this.deps.onCleared?.();
  }

  /**
   * Another tab changed the stored session (it refreshed, signed in or signed out): follow it, so this tab never
   * presents a refresh token that was already rotated (the server treats that as theft and ends the session).
   */
  adoptStoredSession(): void {
    const stored = readSession(this.deps.storage);
    const current = this.tokens();
    if (stored.refreshToken === current.refreshToken && stored.accessToken === current.accessToken) return;
    if (!stored.accessToken) {
      void this.logout({ remote: false });
      return;
    }
    this.deps.store.set(sessionAtom, stored);
  }

  private async runRefresh(onFailure: 'logout' | 'clear'): Promise<boolean> {
    // Another tab may have refreshed already: its new pair is in storage and ours is spent.
    const stored = readSession(this.deps.storage);
    if (stored.refreshToken && stored.refreshToken !== this.tokens().refreshToken) {
      this.deps.store.set(sessionAtom, stored);
      if (!this.expiresSoon(stored)) return true;
    }
    const { refreshToken, accessToken, authTypeId } = this.tokens();
    try {
      if (!refreshToken) throw new Error('no refresh token');
      // With a stored auth type the refresh token goes in x-refresh; otherwise as the bearer, with the old access token.
      const headers: Record<string, string> =
        authTypeId !== null ? { [this.refreshHeader]: refreshToken } : { Authorization: `Bearer ${refreshToken}`, 'X-Access-Token': accessToken ?? '' };
      const tokens = await this.deps.client.post<TokenResponse>(AUTH_PATHS.tokenRefresh, undefined, { guest: true, bypassWait: true, headers });
      this.acceptTokens(tokens);
      return true;
    } catch {
      if (onFailure === 'clear') this.clear();
      else await this.logout({ remote: false });
      return false;
    }
  }
}
