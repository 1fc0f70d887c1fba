// Message-IDs we can trace back to our own message row: "relay-<message id>@<sending domain>".

const DOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const OURS = /^<?relay-(\d+)@([^>\s]+)>?$/i;

/** The domain part of an email address, lowercased; '' when there is none. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? ''
    : address
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/**
 * The Message-ID (without angle brackets) of our message `id` sent from `domain`. The same message keeps the
 * same Message-ID on every retry, so a receiver that sees it twice can tell.
 */
export function messageIdFor(id: number, domain: string): string {
  const host = domain.trim().toLowerCase();
  return `relay-${id}@${DOMAIN.test(host) ? host : 'localhost'}`;
}

/** Our message id and domain from a Message-ID we made (with or without brackets); null for anyone else's. */
export function parseMessageId(value: string): { id: number; domain: string } | null {
  const match = OURS.exec(value.trim());
  return match ? { id: Number(match[1]), domain: match[2].toLowerCase() } : null;
}
