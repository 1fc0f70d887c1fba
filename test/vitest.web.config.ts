import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const root = path.resolve(import.meta.dirname, '..');

// Console unit tests: happy-dom, the same @shared alias as the console build.
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@shared': path.join(root, 'src/shared') },
  },
  define: {
    __APP_VERSION__: JSON.stringify('0.0.0-test'),
  },
  test: {
    root,
    // test/scripts: the local stand-ins' node tests (each file says `@vitest-environment node`).
    include: ['test/web/**/*.test.{ts,tsx}', 'test/architecture/**/*.test.ts', 'test/scripts/**/*.test.ts'],
    environment: 'happy-dom',
    setupFiles: ['test/web/setup.ts'],
    // Two files at once (vitest's default on two cores is one): the suite must stay under CI's 20 minutes.
    maxWorkers: 2,
  },
});
