/** Compares two versions (major.minor.patch, optional pre-release): negative, 0 or positive like a sort comparator. */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = splitVersion(a);
  const [coreB, preB] = splitVersion(b);
  for (let i = 0; i < Math.max(coreA.length, coreB.length); i++) {
    const diff = (coreA[i] ?? 0) - (coreB[i] ?? 0);
    if (diff !== 0) return diff;
  }
  // A release is higher than any of its pre-releases (1.0.0 > 1.0.0-rc.1).
  if (preA === preB) return 0;
  if (!preA) return 1;
  if (!preB) return -1;
  return preA < preB ? -1 : 1;
}

function splitVersion(version: string): [number[], string] {
  const clean = version.trim().replace(/^v/i, '').split('+')[0];
  const dash = clean.indexOf('-');
  const core = dash === -1 ? clean : clean.slice(0, dash);
  const pre = dash === -1 ? '' : clean.slice(dash + 1);
  return [core.split('.').map((part) => Number.parseInt(part, 10) || 0), pre];
}
