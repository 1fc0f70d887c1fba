import Bowser from 'bowser';

export interface ClientInfo {
  browser: string | null;
  os: string | null;
  device: string | null;
}

const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(' ') || null;

/** Browser, operating system and device kind from a User-Agent header, for the activity log. */
export function describeClient(userAgent: string | undefined): ClientInfo {
  if (!userAgent) return { browser: null, os: null, device: null };
  const parsed = Bowser.parse(userAgent);
  return {
    browser: join(parsed.browser.name, parsed.browser.version),
    os: join(parsed.os.name, parsed.os.versionName ?? parsed.os.version),
    device: join(parsed.platform.type, parsed.platform.vendor, parsed.platform.model),
  };
}
