import net from 'node:net';
import type { Locator } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { launchChromium, screenshot } from './browser';

const smtpPort = inject('mailSmtpPort');
const mailUrl = inject('mailUrl');
const baseUrl = inject('baseUrl');

/** A raw SMTP conversation (PIPELINING-free): each command waits for its reply. */
async function sendRaw(port: number, commands: string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  const replies: string[] = [];
  let buffer = '';
  let waiting: ((line: string) => void) | null = null;
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    // A reply ends with a line "NNN text" (a space after the code, not a dash).
    const match = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(buffer);
    if (match && waiting) {
      const reply = buffer;
      buffer = '';
      const resolve = waiting;
      waiting = null;
      resolve(reply);
    }
  });
  const next = () => new Promise<string>((resolve) => (waiting = resolve));
  replies.push(await next()); // greeting
  for (const command of commands) {
    const reply = next();
    socket.write(`${command}\r\n`);
    replies.push(await reply);
  }
  socket.end();
  return replies;
}

describe('the local mail catcher', () => {
  it('accepts a message over SMTP (with any AUTH) and shows it in the viewer', async () => {
    expect((await fetch(`${mailUrl}/messages`, { method: 'DELETE' })).status).toBe(200);
    const body = [
      'From: Relay <noreply@acme.test>',
      'To: Grace <grace@example.com>',
      'Subject: Hello from the e2e test',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'It works.',
      '.',
    ].join('\r\n');
    const replies = await sendRaw(smtpPort, [
      'EHLO e2e.test',
      `AUTH PLAIN ${Buffer.from('\0any\0thing').toString('base64')}`,
      'MAIL FROM:<noreply@acme.test>',
      'RCPT TO:<grace@example.com>',
      'RCPT TO:<hidden@example.com>',
      'DATA',
      body,
      'QUIT',
    ]);
    expect(replies.map((r) => r.slice(0, 3))).toEqual(['220', '250', '235', '250', '250', '250', '354', '250', '221']);

    const messages = (await (await fetch(`${mailUrl}/messages.json`)).json()) as Array<Record<string, unknown>>;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      from: 'noreply@acme.test',
      to: ['grace@example.com'],
      envelope: { from: 'noreply@acme.test', to: ['grace@example.com', 'hidden@example.com'] },
      subject: 'Hello from the e2e test',
    });
    expect(String(messages[0].text).trim()).toBe('It works.');

    const list = await (await fetch(`${mailUrl}/`)).text();
    expect(list).toContain('Hello from the e2e test');
    const one = await fetch(`${mailUrl}/messages/${String(messages[0].id)}`);
    expect(one.status).toBe(200);
    expect(await one.text()).toContain('grace@example.com');
  });

  it('opens every link of a viewed mail in a new tab and keeps the frame a sandbox without scripts', async () => {
    expect((await fetch(`${mailUrl}/messages`, { method: 'DELETE' })).status).toBe(200);
    // The links a caught mail holds: the unsubscribe page and a click redirect on the platform (both refuse to be
    // framed), a plain link, links with targets of their own, an image link, and a mailto.
    const unsubscribe = `${baseUrl}/unsubscribe?m=AAAA`;
    const links = {
      Unsubscribe: unsubscribe,
      'tracked offer': `${baseUrl}/t/c/AAAA`,
      'plain page': `${mailUrl}/?plain`,
      'own target self': `${mailUrl}/?self`,
      'own target top': `${mailUrl}/?top`,
    };
    const html = [
      '<!doctype html><html><head><title>Links</title></head><body>',
      `<p><a href="${links.Unsubscribe}">Unsubscribe</a></p>`,
      `<p><a href="${links['tracked offer']}">tracked offer</a></p>`,
      `<p><a href="${links['plain page']}">plain page</a></p>`,
      `<p><a href="${links['own target self']}" target="_self">own target self</a></p>`,
      `<p><a target='_top' href="${links['own target top']}">own target top</a></p>`,
      `<p><a href="${mailUrl}/?image"><img alt="image link" width="40" height="20" src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' width='40' height='20'><rect width='40' height='20' fill='%234c6ef5'/></svg>"></a></p>`,
      '<p><a href="mailto:help@acme.test">write to us</a></p>',
      '</body></html>',
    ].join('\r\n');
    const body = [
      'From: Relay <noreply@acme.test>',
      'To: Grace <grace@example.com>',
      'Subject: Links to follow',
      `List-Unsubscribe: <${unsubscribe}>`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      html,
      '.',
    ].join('\r\n');
    await sendRaw(smtpPort, ['EHLO e2e.test', 'MAIL FROM:<noreply@acme.test>', 'RCPT TO:<grace@example.com>', 'DATA', body, 'QUIT']);
    const [caught] = (await (await fetch(`${mailUrl}/messages.json`)).json()) as Array<{ id: string }>;
    const viewerUrl = `${mailUrl}/messages/${caught.id}`;

    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(viewerUrl);
      const frame = page.frameLocator('iframe');

      /** Clicks `link` and answers the new tab it opened, once it has loaded; the viewer stays where it was. */
      const followInNewTab = async (link: Locator) => {
        const [tab] = await Promise.all([context.waitForEvent('page', { timeout: 10_000 }), link.click()]);
        await tab.waitForLoadState();
        expect(page.url()).toBe(viewerUrl);
        expect(await frame.getByText('plain page').count()).toBe(1); // the frame still shows the mail
        return tab;
      };

      const unsubscribePage = await followInNewTab(frame.getByText('Unsubscribe', { exact: true }));
      expect(unsubscribePage.url()).toBe(unsubscribe);
      // The public unsubscribe page itself, not a frame refusing to connect (this token is not a real one).
      await unsubscribePage.locator('[data-testid="unsubscribe-invalid"]').waitFor();
      await unsubscribePage.close();

      const sandbox = ((await page.locator('iframe').getAttribute('sandbox')) ?? '').split(/\s+/);
      // Untrusted html: never scripts together with same origin (that pair could lift the sandbox); popups may escape.
      expect(sandbox.includes('allow-scripts') && sandbox.includes('allow-same-origin')).toBe(false);
      expect(sandbox).not.toContain('allow-scripts');
      expect(sandbox).not.toContain('allow-top-navigation');
      expect(sandbox).toEqual(expect.arrayContaining(['allow-popups', 'allow-popups-to-escape-sandbox']));
      expect(await page.locator('#mail-html-note').innerText()).toBe('Links in this mail open in a new tab.');

      for (const [text, href] of Object.entries(links).slice(1)) {
        const tab = await followInNewTab(frame.getByText(text, { exact: true }));
        expect(tab.url()).toBe(href);
        await tab.close();
      }
      const imageTab = await followInNewTab(frame.getByAltText('image link'));
      expect(imageTab.url()).toBe(`${mailUrl}/?image`);
      await imageTab.close();

      // The List-Unsubscribe header is a link on the viewer's own page, to a new tab as well.
      const headerTab = await followInNewTab(page.locator('#list-unsubscribe a'));
      expect(headerTab.url()).toBe(unsubscribe);
      await headerTab.close();

      // A mailto goes to the mail program: the frame never navigates away from the mail.
      await frame.getByText('write to us').click();
      await page.waitForTimeout(300);
      expect(page.url()).toBe(viewerUrl);
      expect(await frame.getByText('plain page').count()).toBe(1);
      for (const tab of context.pages()) if (tab !== page) await tab.close();

      await screenshot(page, 'mail-viewer-links');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'mail-viewer-links-phone');
    } finally {
      await browser.close();
    }
  });
});
