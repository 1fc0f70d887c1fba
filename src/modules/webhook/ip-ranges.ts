// Which IP addresses a webhook may never reach: the platform's own network and everything not on the public internet.
// Addresses are parsed here (IPv4 dotted quads as the URL parser writes them, IPv6 in any textual form).

/** The four bytes of a dotted IPv4 address, or null. */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address (brackets, zone and an embedded IPv4 tail allowed), or null. */
export function parseIpv6(text: string): number[] | null {
  let s = text
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (!s.includes(':')) return null;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const v4 = parseIpv4(tail[1]);
    if (!v4) return null;
    s = `${s.slice(0, -tail[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => Number.parseInt(g, 16));
}

const inV4 = (b: number[], base: number[], bits: number) => {
  const value = (x: number[]) => ((x[0] << 24) | (x[1] << 16) | (x[2] << 8) | x[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (value(b) & mask) >>> 0 === (value(base) & mask) >>> 0;
};

/** Why an IPv4 address is refused, or null; `allowLoopback` under WEBHOOKS_ALLOW_LOCAL. */
export function refusedIpv4(b: number[], allowLoopback: boolean): string | null {
  if (inV4(b, [127, 0, 0, 0], 8)) return allowLoopback ? null : 'loopback address';
  if (inV4(b, [0, 0, 0, 0], 8)) return 'unspecified address';
  if (inV4(b, [10, 0, 0, 0], 8) || inV4(b, [172, 16, 0, 0], 12) || inV4(b, [192, 168, 0, 0], 16)) return 'private address';
  if (inV4(b, [169, 254, 0, 0], 16)) return 'link-local address';
  if (inV4(b, [100, 64, 0, 0], 10)) return 'shared (CGNAT) address';
  if (inV4(b, [224, 0, 0, 0], 4)) return 'multicast address';
  if (inV4(b, [240, 0, 0, 0], 4)) return 'reserved address';
  return null;
}

/** Why an IPv6 address is refused, or null. IPv4-mapped and NAT64 addresses are judged by their IPv4 address. */
export function refusedIpv6(g: number[], allowLoopback: boolean): string | null {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified address';
  if (zeroUpTo(7) && g[7] === 1) return allowLoopback ? null : 'loopback address';
  const v4 = [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff];
  if (zeroUpTo(5) && g[5] === 0xffff) return refusedIpv4(v4, allowLoopback);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return refusedIpv4(v4, allowLoopback);
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local address';
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local address';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast address';
  return null;
}

/** Why an address (either family, as text) is refused, or null; an unparseable one is refused. */
export function refusedAddress(text: string, allowLoopback: boolean): string | null {
  const v4 = parseIpv4(text);
  if (v4) return refusedIpv4(v4, allowLoopback);
  const v6 = parseIpv6(text);
  if (v6) return refusedIpv6(v6, allowLoopback);
  return 'not an IP address';
}
