import { LIVE_TOKEN_PROTOCOL, type LiveEvent } from '@shared/contracts/import';
import { describe, expect, it } from 'vitest';
import { backoffDelay, LiveClient, liveClientFor, liveUrl, type SocketLike } from '../../web/src/lib/live';
import { currentUserAtom } from '../../web/src/lib/session-state';
import { json, makeServices, mockFetch, signIn } from './helpers';

/** A WebSocket stand-in the test opens, closes and feeds by hand. */
class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  sent: string[] = [];
  closed = false;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.({});
  }
  drop() {
    this.onerror?.({});
    this.onclose?.({});
  }
  message(data: string) {
    this.onmessage?.({ data });
  }
}

/** Timers run by the test: `advance(ms)` fires what is due, in order. */
function manualClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimer: (run: () => void, ms: number) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimer: (id: unknown) => void timers.delete(id as number),
    pending: () => [...timers.values()].map((t) => t.at - now).sort((a, b) => a - b),
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
        await flush();
      }
      now = end;
    },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(tokens: (string | null)[] = ['tok-1', 'tok-2', 'tok-3', 'tok-4', 'tok-5', 'tok-6']) {
  const clock = manualClock();
  const sockets: FakeSocket[] = [];
  let tokenCalls = 0;
  const client = new LiveClient({
    url: () => 'ws://acme.localhost/api/v1/live',
    token: async () => tokens[Math.min(tokenCalls++, tokens.length - 1)],
    createSocket: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    now: clock.now,
    random: () => 1, // no jitter: delays are exactly 1 s, 2 s, 4 s...
    pingMs: 25_000,
  });
  return { client, clock, sockets };
}

const finished: LiveEvent = {
  type: 'import.finished',
  import: {
    id: 3,
    file_name: 'a.csv',
    file_size: 10,
    status: 'success',
    skip_first_line: true,
    delimiter: 'comma',
    encoding: 'utf-8',
    created_count: 2,
    updated_count: 0,
    rejected_count: 1,
    processed_bytes: 10,
    processed_rows: 3,
    error: null,
    created_at: '',
    updated_at: '',
    finished_at: '',
  },
};

describe('live client', () => {
  it('connects with the access token as a subprotocol and hands JSON events to subscribers', async () => {
    const { client, sockets } = setup();
    const events: LiveEvent[] = [];
    client.subscribe((event) => events.push(event));
    client.start();
    client.start(); // idempotent: still one connection
    await flush();
    expect(sockets).toHaveLength(1);
    expect(sockets[0].url).toBe('ws://acme.localhost/api/v1/live');
    expect(sockets[0].protocols).toEqual([LIVE_TOKEN_PROTOCOL, 'tok-1']);
    sockets[0].open();
    expect(client.state).toBe('open');
    sockets[0].message('pong');
    sockets[0].message('not json');
    sockets[0].message(JSON.stringify(finished));
    expect(events).toEqual([finished]);
  });

  it('reconnects with exponential backoff and a fresh token each time', async () => {
    const { client, clock, sockets } = setup();
    client.start();
    await flush();
    sockets[0].drop();
    expect(client.state).toBe('waiting');
    expect(clock.pending()).toEqual([1_000]);
    await clock.advance(999);
    expect(sockets).toHaveLength(1);
    await clock.advance(1);
    expect(sockets).toHaveLength(2);
    expect(sockets[1].protocols[1]).toBe('tok-2');
    sockets[1].drop();
    expect(clock.pending()).toEqual([2_000]);
    await clock.advance(2_000);
    sockets[2].drop();
    expect(clock.pending()).toEqual([4_000]);
    await clock.advance(4_000);
    expect(sockets).toHaveLength(4);
    expect(sockets[3].protocols[1]).toBe('tok-4');
  });

  it('starts the backoff over after a connection that stayed up', async () => {
    const { client, clock, sockets } = setup();
    client.start();
    await flush();
    sockets[0].drop();
    await clock.advance(1_000);
    sockets[1].drop();
    await clock.advance(2_000);
    sockets[2].open();
    await clock.advance(60_000);
    expect(sockets[2].sent).toEqual(['ping', 'ping']); // keep-alive every 25 s
    sockets[2].drop();
    expect(clock.pending()).toEqual([1_000]);
  });

  it('waits and tries again when there is no token yet', async () => {
    const { client, clock, sockets } = setup([null, 'tok-late']);
    client.start();
    await flush();
    expect(sockets).toHaveLength(0);
    expect(client.state).toBe('waiting');
    await clock.advance(1_000);
    expect(sockets).toHaveLength(1);
    expect(sockets[0].protocols[1]).toBe('tok-late');
  });

  it('stops for good: closes the socket, cancels the retry, no further connections', async () => {
    const { client, clock, sockets } = setup();
    const events: LiveEvent[] = [];
    client.subscribe((event) => events.push(event));
    client.start();
    await flush();
    sockets[0].open();
    client.stop();
    expect(sockets[0].closed).toBe(true);
    expect(client.state).toBe('idle');
    sockets[0].drop();
    sockets[0].message(JSON.stringify(finished));
    await clock.advance(120_000);
    expect(sockets).toHaveLength(1);
    expect(events).toEqual([]);
    // A new start after stop connects again.
    client.start();
    await flush();
    expect(sockets).toHaveLength(2);
  });

  it('caps the delay at 30 seconds, with jitter taking off at most half', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => backoffDelay(attempt, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(backoffDelay(3, () => 0)).toBe(4_000);
  });

  it('builds the ws:// or wss:// address of the API base', () => {
    expect(liveUrl('/api/v1', 'http://acme.localhost:8787/contact/import')).toBe('ws://acme.localhost:8787/api/v1/live');
    expect(liveUrl('/api/v1/', 'https://acme.example.com/')).toBe('wss://acme.example.com/api/v1/live');
    expect(liveUrl('https://api.example.com/v1', 'https://acme.example.com/')).toBe('wss://api.example.com/v1/live');
  });
});

describe('the console live client and the signed-in user', () => {
  it('reopens the connection with the new user token when the user changes, and closes it on sign-out', async () => {
    const { fn } = mockFetch(() => json(200, {}));
    const services = makeServices(fn);
    const sockets: FakeSocket[] = [];
    const user = (id: number) => ({
      id,
      name: `u${id}`,
      username: `u${id}`,
      email: null,
      has_password: true,
      language: null,
      organization: { id: 1, name: 'Acme', domain: 'acme' },
    });
    signIn(services, { access: 'token-a', expiresInSec: 900 });
    services.store.set(currentUserAtom, user(1));
    const live = liveClientFor(services, {
      apiBaseUrl: '/api/v1',
      pageUrl: () => 'http://acme.localhost/',
      createSocket: (url, protocols) => {
        const socket = new FakeSocket(url, protocols);
        sockets.push(socket);
        return socket;
      },
    });
    live.start();
    await flush();
    expect(sockets.map((s) => s.protocols.at(-1))).toEqual(['token-a']);

    signIn(services, { access: 'token-b', expiresInSec: 900 }); // another user arrives without a sign-out (social login)
    services.store.set(currentUserAtom, user(2));
    await flush();
    expect(sockets[0].closed).toBe(true);
    expect(sockets.map((s) => s.protocols.at(-1))).toEqual(['token-a', 'token-b']);

    services.store.set(currentUserAtom, null);
    await flush();
    expect(sockets[1].closed).toBe(true);
    expect(sockets).toHaveLength(2);
  });
});
