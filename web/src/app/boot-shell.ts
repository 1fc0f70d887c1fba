import { useLayoutEffect } from 'react';

// The sign-in card the worker paints from the html at `/` before the console has run (src/modules/console/
// sign-in-shell.ts). While it is in the page, a style in it keeps the console's own drawing hidden; the console
// removes it as soon as it has drawn a screen of its own, before that screen is painted, so the two swap in one frame.

/** Removes the worker's sign-in shell, if the page has one. */
export function removeBootShell(): void {
  document.getElementById('boot-shell')?.remove();
}

/** Removes the shell once the calling component is on the page (a layout effect: before the browser paints it). */
export function useRemoveBootShell(when = true): void {
  useLayoutEffect(() => {
    if (when) removeBootShell();
  }, [when]);
}
