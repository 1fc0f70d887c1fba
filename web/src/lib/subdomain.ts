/**
 * The organisation label of a host name (spec section 1): the first label when the host has more than two
 * labels, or two labels with the second being localhost (acme.localhost). Otherwise null.
 */
export function orgLabelFromHost(host: string): string | null {
  const name = host.replace(/:\d+$/, '').toLowerCase();
  if (!name || name.startsWith('[')) return null;
  const labels = name.split('.');
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return null;
  if (labels.length > 2 || (labels.length === 2 && labels[1] === 'localhost')) return labels[0] || null;
  return null;
}
