import { useEffect, useState } from 'react';

/**
 * The page's query, read once when the page opens, then taken out of the address bar (history.replaceState): a
 * one-time code or signed token in a URL must not stay in the history, a screenshot or a shared tab.
 */
export function useOneTimeQuery(): URLSearchParams {
  const [query] = useState(() => new URLSearchParams(window.location.search));
  useEffect(() => {
    if (window.location.search) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);
  return query;
}
