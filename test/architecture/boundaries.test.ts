import { describe, expect, it } from 'vitest';
import { ALLOWED_FEATURE_LINKS, forbiddenImports } from './boundaries';
import { importEdges } from './import-graph';

// The import rules (boundaries.ts) hold over the whole codebase, and a new forbidden import fails them.
const FOLDERS = ['src', 'durable-objects', 'queues', 'web/src'];

describe('import boundaries', () => {
  const edges = importEdges(FOLDERS);

  it('reads the graph (the check sees real imports)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: 'queues/dispatch.ts', to: 'src/queue-names' });
  });

  it('holds today: dependencies point one way', () => {
    expect(forbiddenImports(edges)).toEqual([]);
  });

  it('fails on a feature-to-feature import that is not allowed', () => {
    const added = importEdges(FOLDERS, (file) =>
      file.endsWith('web/src/features/tag/api.ts') ? `import { BroadcastListPage } from '../broadcast/BroadcastListPage';\n` : '',
    );
    expect(forbiddenImports(added)).toEqual([
      'web/src/features/tag/api.ts -> web/src/features/broadcast/BroadcastListPage: a feature imports no other feature',
    ]);
  });

  it('fails on a module reaching out to an adapter, and on lib/ reaching up', () => {
    const added = importEdges(FOLDERS, (file) => {
      if (file.endsWith('src/modules/sending/compose.ts')) return `import { sendHandlers } from '../../../queues/send';\n`;
      if (file.endsWith('web/src/lib/api-client.ts')) return `import { routes } from '../app/routes';\n`;
      return '';
    });
    expect(forbiddenImports(added)).toEqual([
      'src/modules/sending/compose.ts -> queues/send: src/ imports no runtime adapter',
      'web/src/lib/api-client.ts -> web/src/app/routes: lib/ is the kernel and imports no app or feature',
    ]);
  });

  it('allows only links that are still used (a link removed from the code leaves the list)', () => {
    const used = new Set(edges.map(({ from, to }) => `${/features\/([^/]+)\//.exec(from)?.[1]} -> ${/features\/([^/]+)\//.exec(to)?.[1]}`));
    expect(Object.keys(ALLOWED_FEATURE_LINKS).filter((link) => !used.has(link))).toEqual([]);
  });
});
