/** Resolves after the given number of milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls every `intervalMs` until `busy()` turns false: how requests wait while auth fetching or refreshing runs. */
export async function waitWhile(busy: () => boolean, intervalMs: number): Promise<void> {
  while (busy()) await sleep(intervalMs);
}
