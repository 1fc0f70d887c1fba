import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts with an empty DOM and storage.
afterEach(() => {
  cleanup();
  localStorage.clear();
});
