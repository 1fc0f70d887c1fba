import { afterEach, expect } from 'vitest';
import { takeCspViolations } from './browser';

// Every end-to-end test runs the console under its real Content-Security-Policy: any refusal fails the test
// that caused it (a script, style, image or connection the policy does not allow is a bug in one or the other).
afterEach(() => {
  expect(takeCspViolations()).toEqual([]);
});
