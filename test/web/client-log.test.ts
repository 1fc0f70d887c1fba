import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../web/src/lib/api-error';
import { buildLogPayload, ClientLogger } from '../../web/src/lib/client-log';
import { orgLabelFromHost } from '@shared/tenant-host';

const deps = () => ({
  send: vi.fn(async () => undefined),
  env: 'production',
  url: () => 'http://acme.localhost/tag',
  userAgent: () => 'UA',
  now: () => Date.UTC(2026, 10, 1),
});

describe('client error log', () => {
  it('builds {msg, env, level ERROR, args {stack, name, context, url, userAgent, timestamp}}', () => {
    const payload = buildLogPayload({ message: 'boom', name: 'TypeError', stack: 'at x', context: { a: 1 } }, deps());
    expect(payload).toEqual({
      msg: 'boom',
      env: 'production',
      level: 'ERROR',
      args: { stack: 'at x', name: 'TypeError', context: { a: 1 }, url: 'http://acme.localhost/tag', userAgent: 'UA', timestamp: '2026-11-01T00:00:00.000Z' },
    });
  });

  it('reports window errors and unhandled rejections, but not API errors', () => {
    const d = deps();
    const logger = new ClientLogger(d);
    const stop = logger.install(window);
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('render failed'), message: 'render failed' }));
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(rejection, 'reason', { value: new Error('async failed') });
    window.dispatchEvent(rejection);
    const apiRejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(apiRejection, 'reason', { value: new ApiError({ status: 422, code: 'validation_failed', message: 'x', requestKey: 'k' }) });
    window.dispatchEvent(apiRejection);
    stop();
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('after stop') }));

    expect(d.send.mock.calls.map((call) => (call as unknown as [{ msg: string }])[0].msg)).toEqual(['render failed', 'async failed']);
  });

  it('skips silent statuses and repeated reports', () => {
    const d = deps();
    const logger = new ClientLogger(d);
    for (const status of [401, 403, 422, 0]) logger.report({ message: 'm', context: { status } });
    logger.report({ message: 'same', context: { status: 500 } });
    logger.report({ message: 'same', context: { status: 500 } });
    expect(d.send).toHaveBeenCalledTimes(1);
  });
});

describe('organisation label of the host (X-ORG)', () => {
  it('takes the first label of three-label hosts or name.localhost', () => {
    expect(orgLabelFromHost('acme.localhost:8787')).toBe('acme');
    expect(orgLabelFromHost('acme.relay.example')).toBe('acme');
    expect(orgLabelFromHost('relay.example')).toBeNull();
    expect(orgLabelFromHost('127.0.0.1:8787')).toBeNull();
    expect(orgLabelFromHost('localhost:5173')).toBeNull();
  });
});
