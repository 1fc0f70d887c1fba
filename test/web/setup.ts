import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadConsoleEnglish } from '../../web/src/app/i18n';

// The console tests render signed-in screens: their English is at hand before any i18n instance is made, as it is in a
// browser that was signed in (web/src/app/services.ts).
await loadConsoleEnglish();

// Each test starts with an empty DOM and storage.
afterEach(() => {
  cleanup();
  // Absent in the node-environment files (test/scripts).
  globalThis.localStorage?.clear();
});
