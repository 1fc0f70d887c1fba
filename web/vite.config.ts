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
