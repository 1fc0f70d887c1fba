/**
 * The organisation label of a host (spec section 1): the first label when the host has more than two labels,
 * or two labels with the second being `localhost` (acme.localhost). Otherwise none. Used by the worker's
 * tenant middleware and by the console (X-ORG on the log call).
 */
export function orgLabelFromHost(host: string | undefined): string | null {
  if (!host) return null;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  if (!name || name.startsWith('[')) return null; // IPv6 literal
  const labels = name.split('.');
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return null; // IPv4 literal
  if (labels.length > 2 || (labels.length === 2 && labels[1] === 'localhost')) return labels[0] || null;
  return null;
}
