// DMARC identifier alignment (RFC 7489 3.1). Strict: the two names are the same. Relaxed: they share an
// Organizational Domain (3.2), the public suffix plus one label, which takes the Public Suffix List to know:
// mail.example.co.uk and example.co.uk share example.co.uk, a.example.com and b.example.net share nothing.
//
// The list comes from `tldts` (maintained, a current copy of the list built in, typed, no Node APIs so it runs in
// the worker, and fast lookups from a compiled trie). Its private section is used too (allowPrivateDomains): under
// github.io or blogspot.com each customer's name is its own organisation, so a.github.io and b.github.io do not align.
import { getDomain } from 'tldts';
import { normalizeName } from './doh';

export type AlignmentMode = 'relaxed' | 'strict';

/** The Organizational Domain of a name; the name itself when it is a public suffix (co.uk) or has no suffix. */
export function organizationalDomain(name: string): string {
  const host = normalizeName(name);
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/** True when two domains align in the given mode (adkim/aspf: r relaxed, the default; s strict). */
export function domainsAlign(a: string, b: string, mode: AlignmentMode = 'relaxed'): boolean {
  const left = normalizeName(a);
  const right = normalizeName(b);
  if (!left || !right) return false;
  if (mode === 'strict') return left === right;
  return organizationalDomain(left) === organizationalDomain(right);
}
