import { LIVE_TOKEN_PROTOCOL, type LiveEvent } from '@shared/contracts/import';
import { currentUserAtom } from './session-state';
import type { Services } from './services';

/** What the live client needs of a WebSocket (the browser's, or a stand-in in tests). */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveDeps {
  /** ws(s)://host/api/v1/live */
  url: () => string;
  /** A usable access token (refreshed first when it is about to expire), or null when there is none. */
  token: () => Promise<string | null>;
  createSocket: (url: string, protocols: string[]) => SocketLike;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  now?: () => number;
  random?: () => number;
  /** Keep-alive: 'ping' this often while open (the server answers 'pong'). */
  pingMs?: number;
}

export type LiveState = 'idle' | 'connecting' | 'open' | 'waiting';

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A connection that stayed open this long counts as healthy: the next failure starts the backoff again. */
const HEALTHY_MS = 10_000;

/** Reconnect delay after `attempt` failures in a row: 1 s doubling up to 30 s, with up to 50% random jitter off. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.5 + random() * 0.5));
}

/**
 * The console's one live connection (GET /api/v1/live, a WebSocket): the access token goes as a subprotocol
 * (browsers cannot set headers on a WebSocket), every JSON frame is handed to the subscribers, and a lost
 * connection is made again with exponential backoff and a fresh token until stop() is called.
 */
export class LiveClient {
  private socket: SocketLike | null = null;
  private running = false;
  private attempt = 0;
  private openedAt = 0;
  private retryTimer: unknown = null;
  private pingTimer: unknown = null;
  private generation = 0;
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private current: LiveState = 'idle';

  constructor(private readonly deps: LiveDeps) {}

  /** Where the connection stands (for tests and diagnostics). */
  get state(): LiveState {
    return this.current;
  }

  /** Connects unless already running. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    void this.connect();
  }

  /** Closes the connection and stops reconnecting (sign-out). */
  stop(): void {
    this.running = false;
    this.generation += 1;
    this.clear(this.retryTimer);
    this.retryTimer = null;
    this.stopPing();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.onerror = null;
      socket.onopen = null;
      try {
        socket.close(1000, 'signed out');
      } catch {
        // already closed
      }
    }
    this.current = 'idle';
  }

  /** Receives every event until the returned function is called. */
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async connect(): Promise<void> {
    const generation = this.generation;
    this.current = 'connecting';
    let token: string | null = null;
    try {
      token = await this.deps.token();
    } catch {
      token = null;
    }
    if (!this.running || generation !== this.generation) return;
    if (!token) {
      this.scheduleReconnect();
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.deps.createSocket(this.deps.url(), [LIVE_TOKEN_PROTOCOL, token]);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.current = 'open';
      this.openedAt = this.now();
      this.startPing(socket);
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onerror = () => undefined; // a close event follows
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopPing();
      if (this.openedAt && this.now() - this.openedAt >= HEALTHY_MS) this.attempt = 0;
      this.openedAt = 0;
      if (this.running) this.scheduleReconnect();
    };
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string' || data === 'pong') return;
    let event: LiveEvent;
    try {
      event = JSON.parse(data) as LiveEvent;
    } catch {
      return;
    }
    if (!event || typeof event !== 'object' || typeof event.type !== 'string') return;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error('live listener failed', error);
      }
    }
  }

  private scheduleReconnect(): void {
    this.current = 'waiting';
    const delay = backoffDelay(this.attempt, this.deps.random);
    this.attempt += 1;
    this.clear(this.retryTimer);
    this.retryTimer = this.timer(() => {
      this.retryTimer = null;
      if (this.running) void this.connect();
    }, delay);
  }

  private startPing(socket: SocketLike): void {
    this.stopPing();
    const every = this.deps.pingMs ?? 25_000;
    const tick = () => {
      try {
        socket.send('ping');
      } catch {
        // the close event handles it
      }
      this.pingTimer = this.timer(tick, every);
    };
    this.pingTimer = this.timer(tick, every);
  }

  private stopPing(): void {
    this.clear(this.pingTimer);
    this.pingTimer = null;
  }

  private timer(run: () => void, ms: number): unknown {
    return (this.deps.setTimer ?? ((fn, delay) => setTimeout(fn, delay)))(run, ms);
  }

  private clear(timer: unknown): void {
    if (timer !== null && timer !== undefined) (this.deps.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>)))(timer);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}

/** The live endpoint's WebSocket URL for an API base ('/api/v1' or absolute) seen from a page URL. */
export function liveUrl(apiBaseUrl: string, pageUrl: string): string {
  const url = new URL(`${apiBaseUrl.replace(/\/$/, '')}/live`, pageUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

const clients = new WeakMap<Services, LiveClient>();

/**
 * The one live client of a console (per services object): created on first use, stopped when the signed-in
 * user goes away (sign-out or a failed refresh) and restarted with the new user's token when the user changes.
 */
export function liveClientFor(services: Services, options: { apiBaseUrl: string; pageUrl: () => string; createSocket?: LiveDeps['createSocket'] }): LiveClient {
  const existing = clients.get(services);
  if (existing) return existing;
  const { session, store } = services;
  const client = new LiveClient({
    url: () => liveUrl(options.apiBaseUrl, options.pageUrl()),
    token: () => session.freshToken(),
    createSocket: options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols) as unknown as SocketLike),
  });
  // A socket belongs to the user whose token opened it: stop it when they go, reopen it when another comes.
  let userId = store.get(currentUserAtom)?.id ?? null;
  store.sub(currentUserAtom, () => {
    const next = store.get(currentUserAtom)?.id ?? null;
    if (next === userId) return;
    const hadUser = userId !== null;
    userId = next;
    client.stop();
    if (next !== null && hadUser) client.start();
  });
  clients.set(services, client);
  return client;
}
