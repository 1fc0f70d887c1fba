import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts with an empty DOM and storage.
afterEach(() => {
  cleanup();
  // Absent in the node-environment files (test/scripts).
  globalThis.localStorage?.clear();
});
