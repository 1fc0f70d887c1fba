// The DNS records the worker's routes need: Cloudflare sends a host's requests to a worker route only when the host
// has a proxied record, and the organisations' subdomains need a proxied wildcard; a route cannot make one. Wrangler
// has no command for DNS records, so this one step calls the API itself (the token from CLOUDFLARE_API_TOKEN, the base
// wrangler uses, CLOUDFLARE_API_BASE_URL). With `wrangler login` alone there is no token to use: it says what to add.
// The records are AAAA 100:: (the documented "originless" address): the worker answers every request.

const apiBase = () => (process.env.CLOUDFLARE_API_BASE_URL || 'https://api.cloudflare.com/client/v4').replace(/\/+$/, '');

async function cloudflare(method, path, body) {
  const res = await fetch(`${apiBase()}${path}`, {
    method,
    headers: { authorization: `Bearer ${process.env.CLOUDFLARE_API_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await res.json().catch(() => null);
  if (!res.ok || !answer?.success) {
    const errors = answer?.errors?.map((e) => `${e.message} [code: ${e.code}]`).join('; ') || `HTTP ${res.status}`;
    throw new Error(`${method} ${path}: ${errors}`);
  }
  return answer.result;
}

/** The host's and its wildcard's proxied records on `zone`; created when missing. */
export async function ensureDnsRecords({ host, zone, dryRun }) {
  const names = [host, `*.${host}`];
  if (!process.env.CLOUDFLARE_API_TOKEN) {
    return { outcome: 'unknown', detail: `add proxied records for ${names.join(' and ')} on ${zone} (AAAA 100::): no API token to add them with` };
  }
  const [found] = await cloudflare('GET', `/zones?name=${encodeURIComponent(zone)}`);
  if (!found) throw new Error(`the zone ${zone} is not on this account: add it to Cloudflare first, or pass --zone`);
  const missing = [];
  for (const name of names) {
    const records = await cloudflare('GET', `/zones/${found.id}/dns_records?name=${encodeURIComponent(name)}`);
    if (records.length === 0) missing.push(name);
  }
  if (missing.length === 0) return { outcome: 'exists' };
  if (dryRun) return { outcome: 'create', detail: `would add ${missing.join(' and ')}` };
  for (const name of missing) {
    await cloudflare('POST', `/zones/${found.id}/dns_records`, {
      type: 'AAAA',
      name,
      content: '100::',
      proxied: true,
      comment: 'Relay: served by its worker (npm run deploy)',
    });
  }
  return { outcome: 'created', detail: missing.join(' and ') };
}
