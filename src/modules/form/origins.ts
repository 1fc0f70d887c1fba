// The origins a form may be embedded on and redirect to (issue 39): scheme://host[:port], https, or http only for
// the local hosts a developer tries the form on. One rule for the API's checks and what is stored.

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/** The origin as stored (lower-case, no path, default port dropped), or null when it is not an allowed one. */
export function normaliseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const httpsOrLocal = url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  // Only an origin: a path, query, fragment or credentials mean the person typed something else.
  const bare = (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash && !url.username && !url.password;
  if (!httpsOrLocal || !bare || !url.hostname) return null;
  return url.origin;
}

/** The URL's origin when it is an absolute http(s) URL, else null. */
export function originOfUrl(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}
