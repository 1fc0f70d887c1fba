// The optional chat widget: off unless configured; when it is, the console learns its origin and token from
// /init/guest and the content security policy allows that origin (script, frame, connections) and nothing more.
import { describe, expect, it } from 'vitest';
import { chatWidgetOf } from '../../../src/modules/chat-widget/config';
import { SHELL_SCRIPT_HASH } from '../../../src/modules/console/sign-in-shell';
import { appFetch, createOrg } from '../helpers';

const CHAT = { CHAT_WIDGET_BASE_URL: 'https://chat.example.com/', CHAT_WIDGET_TOKEN: 'wt-123' };

const get = (path: string, env: Record<string, string> = {}) =>
  appFetch(new Request(`http://chatw.localhost:8787${path}`, { headers: { host: 'chatw.localhost:8787' } }), { env: env as never });

describe('the chat widget', () => {
  it('is off by default: no settings for the console, nothing extra in the policy', async () => {
    await createOrg('chatw');
    const init = await (await get('/api/v1/init/guest')).json<any>();
    expect(init.data.chat_widget).toBeNull();
    const csp = (await get('/')).headers.get('content-security-policy')!;
    // Its own origin and the sign-in shell's one inline script (by its hash, src/modules/console/sign-in-shell.ts).
    expect(csp.match(/script-src [^;]*/)?.[0]).toBe(`script-src 'self' ${SHELL_SCRIPT_HASH}`);
    expect(csp).not.toContain('frame-src');
  });

  it('when configured, hands the console its origin and token and allows that origin alone', async () => {
    const init = await (await get('/api/v1/init/guest', CHAT)).json<any>();
    expect(init.data.chat_widget).toEqual({ base_url: 'https://chat.example.com', website_token: 'wt-123' });
    const csp = (await get('/', CHAT)).headers.get('content-security-policy')!;
    expect(csp.match(/script-src [^;]*/)?.[0]).toBe(`script-src 'self' ${SHELL_SCRIPT_HASH} https://chat.example.com`);
    expect(csp.match(/frame-src [^;]*/)?.[0]).toBe('frame-src https://chat.example.com');
    expect(csp.match(/connect-src [^;]*/)?.[0]).toBe("connect-src 'self' ws://chatw.localhost:8787 https://chat.example.com wss://chat.example.com");
    expect(csp.match(/style-src [^;]*/)?.[0]).toBe("style-src 'self' 'unsafe-inline'");
    expect(csp.match(/default-src [^;]*/)?.[0]).toBe("default-src 'self'");
  });

  it('stays off when misconfigured', () => {
    expect(chatWidgetOf({ CHAT_WIDGET_BASE_URL: 'javascript:alert(1)', CHAT_WIDGET_TOKEN: 'x' })).toBeNull();
    expect(chatWidgetOf({ CHAT_WIDGET_BASE_URL: 'not a url', CHAT_WIDGET_TOKEN: 'x' })).toBeNull();
    expect(chatWidgetOf({ CHAT_WIDGET_BASE_URL: 'https://chat.example.com' })).toBeNull();
  });
});
