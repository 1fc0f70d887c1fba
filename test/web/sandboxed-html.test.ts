import { describe, expect, it } from 'vitest';
import { FRAME_POLICY, FRAME_SANDBOX, framedDocument } from '../../web/src/components/common/SandboxedHtml';

const META = `<meta http-equiv="Content-Security-Policy" content="${FRAME_POLICY}"><base target="_blank">`;

describe('the frame policy of email previews', () => {
  it('forbids every script and plugin', () => {
    expect(FRAME_POLICY).toContain("script-src 'none'");
    expect(FRAME_POLICY).toContain("default-src 'none'");
    expect(FRAME_POLICY).toContain("object-src 'none'");
  });

  it('lets a link open a new tab, never scripts and same origin together', () => {
    // A link in the frame would otherwise open inside it, where the console and the tracking pages refuse to be framed.
    const tokens = FRAME_SANDBOX.split(' ');
    expect(tokens).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
    expect(tokens).not.toContain('allow-scripts');
    expect(tokens).not.toContain('allow-same-origin');
    expect(framedDocument('<p><a href="https://example.com/">x</a></p>')).toContain('<base target="_blank">');
  });

  it('goes into the head, after the doctype, or first', () => {
    expect(framedDocument('<!DOCTYPE html><html><head><title>x</title></head><body>Hi</body></html>')).toBe(
      `<!DOCTYPE html><html><head>${META}<title>x</title></head><body>Hi</body></html>`,
    );
    expect(framedDocument('<html><HEAD lang="en"><title>x</title></HEAD></html>')).toBe(`<html><HEAD lang="en">${META}<title>x</title></HEAD></html>`);
    expect(framedDocument('<!doctype html><p>Hi</p>')).toBe(`<!doctype html>${META}<p>Hi</p>`);
    expect(framedDocument('<p>Hi</p>')).toBe(`${META}<p>Hi</p>`);
    // <header> is not <head>.
    expect(framedDocument('<header>Top</header>')).toBe(`${META}<header>Top</header>`);
  });
});
