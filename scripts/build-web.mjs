// `npm run build:web`: builds the console into a staging folder beside dist/web, then moves into dist/web only the
// files that changed (each by a rename, so no reader sees half a file) and removes the ones the build no longer makes.
// Why not Vite's own emptyOutDir on dist/web: a running wrangler dev (another `npm start`, the browser tests' platform
// while the quick-start test runs `npm start`) serves dist/web and reloads its asset list when the folder changes; an
// emptied folder read in the middle of a build left it answering the console's page with an empty 404.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, mkdirSync, rmdirSync, existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const target = path.join(root, 'dist', 'web');
const staging = path.join(root, 'dist', '.web-build');

rmSync(staging, { recursive: true, force: true });
const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const built = spawnSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--outDir', staging, '--emptyOutDir', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
if (built.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.exit(built.status ?? 1);
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir, prefix = '') {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), relative) : [relative];
  });
}

const sameContent = (a, b) => existsSync(b) && readFileSync(a).equals(readFileSync(b));

const fresh = new Set(filesUnder(staging));
let moved = 0;
for (const file of fresh) {
  const from = path.join(staging, file);
  const to = path.join(target, file);
  if (sameContent(from, to)) continue;
  mkdirSync(path.dirname(to), { recursive: true });
  renameSync(from, to);
  moved++;
}
// The stale files go after the new ones are in, so the page never names a file that is not there yet.
let removed = 0;
for (const file of filesUnder(target)) {
  if (fresh.has(file)) continue;
  rmSync(path.join(target, file));
  removed++;
}
removeEmptyFolders(target);
rmSync(staging, { recursive: true, force: true });
console.log(`dist/web: ${moved} file(s) written, ${removed} removed, ${fresh.size - moved} unchanged`);

function removeEmptyFolders(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const sub = path.join(dir, entry.name);
    removeEmptyFolders(sub);
    if (readdirSync(sub).length === 0) rmdirSync(sub);
  }
}
