import { readItem, STORAGE_KEYS, writeItem, type KeyValueStorage } from './storage';

/** A 53-bit string hash (cyrb53) as hex: stable, fast, synchronous; not for security. */
export function hashString(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

function canvasSignature(): string {
  const canvas = document.createElement('canvas');
  canvas.width = 200;
  canvas.height = 40;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas 2d context unavailable');
  ctx.textBaseline = 'top';
  ctx.font = '14px Arial';
  ctx.fillStyle = '#f60';
  ctx.fillRect(100, 1, 62, 20);
  ctx.fillStyle = '#069';
  ctx.fillText('relay-console \u2709', 2, 15);
  return canvas.toDataURL();
}

/** The stable browser properties the fingerprint is made of; a property that cannot be read is skipped. */
export function fingerprintParts(debug: boolean): string[] {
  const parts: string[] = [];
  const read = (label: string, get: () => unknown) => {
    try {
      parts.push(`${label}=${String(get())}`);
    } catch (error) {
      if (debug) console.debug(`fingerprint: ${label} unavailable`, error);
    }
  };
  read('ua', () => navigator.userAgent);
  read('lang', () => navigator.language);
  read('langs', () => (navigator.languages ?? []).join(','));
  read('platform', () => navigator.platform);
  read('cores', () => navigator.hardwareConcurrency);
  read('memory', () => (navigator as Navigator & { deviceMemory?: number }).deviceMemory);
  read('touch', () => navigator.maxTouchPoints);
  read('screen', () => `${screen.width}x${screen.height}x${screen.colorDepth}`);
  read('tz', () => Intl.DateTimeFormat().resolvedOptions().timeZone);
  read('tzOffset', () => new Date().getTimezoneOffset());
  read('canvas', canvasSignature);
  return parts;
}

/**
 * The device id: a hash of the browser fingerprint, computed once and kept in local storage so every call
 * sends the same X-DEVICE. Failures are only logged in debug mode and never block the app.
 */
export function getDeviceId(storage: KeyValueStorage, debug = false): string {
  const stored = readItem(storage, STORAGE_KEYS.deviceId);
  if (stored) return stored;
  let id: string;
  try {
    id = hashString(fingerprintParts(debug).join('|'));
  } catch (error) {
    if (debug) console.debug('fingerprint failed', error);
    id = hashString(`${Date.now()}-${Math.random()}`);
  }
  writeItem(storage, STORAGE_KEYS.deviceId, id);
  return id;
}
