// The DKIM selector rule, in a file that imports nothing so the local seed (Node) can use it too.

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * `relay<yyyymm><letter>`: the month a key was made, so a person reading DNS sees its age, and a letter so another
 * key of the same month gets a name of its own: the first letter after the current selector's (a rotation) that no
 * other row of the same name uses (organisations that add the same domain never share a DKIM record name).
 */
export function nextSelector(now: Date, current: string | null, used: readonly string[] = []): string {
  const month = `relay${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const start = current?.startsWith(month) ? LETTERS.indexOf(current.slice(month.length)) + 1 : 0;
  const taken = new Set([...used, ...(current ? [current] : [])]);
  for (let step = 0; step < LETTERS.length; step++) {
    const candidate = `${month}${LETTERS[(start + step) % LETTERS.length]}`;
    if (!taken.has(candidate)) return candidate;
  }
  // Twenty-six keys for one name in one month: share a letter rather than refuse (the p= still tells keys apart).
  return `${month}${LETTERS[start % LETTERS.length]}`;
}
