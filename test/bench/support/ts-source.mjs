// Lets a benchmark import the worker's own TypeScript (src/) on the pinned Node 22, which strips types itself but
// resolves only full file names: the sources import each other without the `.ts` (as the bundler allows), so a
// relative import without an extension is tried with `.ts`. Import this module before importing from src/.
import { registerHooks } from 'node:module';
import path from 'node:path';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (/^\.\.?\//.test(specifier) && !path.extname(specifier)) {
      try {
        return nextResolve(`${specifier}.ts`, context);
      } catch {
        // not a TypeScript source: resolved as written below
      }
    }
    return nextResolve(specifier, context);
  },
});
