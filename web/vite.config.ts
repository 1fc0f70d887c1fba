import { readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const webRoot = import.meta.dirname;
const pkg = JSON.parse(readFileSync(path.join(webRoot, '../package.json'), 'utf8')) as { version: string };

/**
 * Swagger UI's bundle and stylesheet from swagger-ui-dist, served same-origin at /api-docs/ (the worker's
 * /api/swagger-ui page loads them): emitted into the build, and answered by the dev server.
 */
function swaggerUiAssets(): Plugin {
  const dist = path.resolve(webRoot, '../node_modules/swagger-ui-dist');
  const files = { 'swagger-ui-bundle.js': 'text/javascript', 'swagger-ui.css': 'text/css' } as const;
  return {
    name: 'swagger-ui-assets',
    generateBundle() {
      for (const name of Object.keys(files)) {
        this.emitFile({ type: 'asset', fileName: `api-docs/${name}`, source: readFileSync(path.join(dist, name)) });
      }
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const name = req.url?.match(/^\/api-docs\/([\w.-]+)$/)?.[1] as keyof typeof files | undefined;
        if (!name || !(name in files)) return next();
        res.setHeader('content-type', files[name]);
        res.end(readFileSync(path.join(dist, name)));
      });
    },
  };
}

// The console build: root web/, output dist/web (served by the worker's assets binding), @shared -> src/shared.
export default defineConfig({
  root: webRoot,
  plugins: [react(), swaggerUiAssets()],
  resolve: {
    alias: [
      { find: '@shared', replacement: path.resolve(webRoot, '../src/shared') },
      // zod, told to parse without `new Function` before any schema is built (src/app/zod-jitless.ts).
      { find: /^zod$/, replacement: path.resolve(webRoot, 'src/app/zod-jitless.ts') },
    ],
  },
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  build: {
    outDir: path.resolve(webRoot, '../dist/web'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // No manual chunks: each library goes with the pages that import it (chart.js with the dashboard, lexical with
        // the template editor, the import's CSV parser with the import, each Mantine component with the pages using it), so signing
        // in loads only what the sign-in card uses. Each language's strings are one chunk, loaded when chosen; the
        // signed-in areas' English is one chunk too, loaded when someone is signed in (web/src/app/i18n.ts).
        codeSplitting: {
          groups: [
            { debugName: 'locales', name: (id: string) => `locale-${/([a-z]{2})\.json$/.exec(id)?.[1]}`, test: /locales[\\/](?:[^\\/]+[\\/])?(?:ru|de|pt|fr|ro|zh|es)\.json$/ },
            { debugName: 'console English', name: 'console-en', test: /web[\\/]src[\\/]locales[\\/](?!identity[\\/])[^\\/]+[\\/]en\.json$/ },
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
