const encoder = new TextEncoder();

/**
 * Tells client addresses apart without storing them: SHA-256 of the address with a secret and the day (a burst
 * is seconds long; the same address tomorrow is not linkable to today's), 16 hex characters.
 */
export async function hashAddress(secret: string, address: string | null, at: Date): Promise<string | null> {
  if (!address) return null;
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${secret}\u0000${at.toISOString().slice(0, 10)}\u0000${address}`));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
