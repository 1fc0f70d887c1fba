import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// The project's import graph, read from the source files as text (static `import ... from` and `export ... from`,
// and dynamic `import('...')` with a literal path): which file imports which, by path from the repository root.
// Bare package imports are left out; the console's `@shared` alias is src/shared.

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ImportEdge {
  from: string;
  to: string;
}

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const SPECIFIER = /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) out.push(full);
  }
  return out;
}

/** Resolves a relative or aliased specifier to a repository path (extension as written or guessed), or null. */
function resolve(fromFile: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith('@shared/')) target = path.join(ROOT, 'src/shared', specifier.slice('@shared/'.length));
  else if (specifier.startsWith('.')) target = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  return path.relative(ROOT, target).split(path.sep).join('/');
}

/** Every import edge among the source files under the given folders (repository-relative). */
export function importEdges(folders: string[], source: (file: string) => string = (file) => readFileSync(file, 'utf8')): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const folder of folders) {
    for (const file of walk(path.join(ROOT, folder), [])) {
      const from = path.relative(ROOT, file).split(path.sep).join('/');
      for (const match of source(file).matchAll(SPECIFIER)) {
        const to = resolve(file, match[1] ?? match[2]);
        if (to) edges.push({ from, to });
      }
    }
  }
  return edges;
}
