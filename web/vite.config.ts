import { readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = import.meta.dirname;
const pkg = JSON.parse(readFileSync(path.join(webRoot, '../package.json'), 'utf8')) as { version: string };

// The console build: root web/, output dist/web (served by the worker's assets binding), @shared -> src/shared.
export default defineConfig({
  root: webRoot,
  plugins: [react()],
  resolve: {
    alias: { '@shared': path.resolve(webRoot, '../src/shared') },
  },
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  build: {
    outDir: path.resolve(webRoot, '../dist/web'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the console: separate chunks cache better and stay under the size warning.
        codeSplitting: {
          groups: [
            { name: 'mantine', test: /node_modules[\\/]@(mantine|tabler|floating-ui)/ },
            { name: 'vendor', test: /node_modules/ },
          ],
        },
      },
    },
  },
  server: {
    // The Host header is kept (no changeOrigin) so acme.localhost:5173 still names the organisation.
    proxy: { '/api': { target: 'http://127.0.0.1:8787' } },
  },
});
