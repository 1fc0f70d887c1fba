// Placeholder until the transport's allow-list lands (merged from h-transport).
export function headerErrors(headers: Record<string, string>): string[] {
  return Object.keys(headers)
    .filter((name) => !/^X-[A-Za-z0-9-]{1,98}$/.test(name))
    .map((name) => `${name}: this header cannot be set`);
}
