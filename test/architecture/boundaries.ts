import type { ImportEdge } from './import-graph';

// The import rules of the codebase, as data: dependencies point one way.
// Worker: the modules (src/) know nothing of the runtime adapters; durable-objects/ and queues/ import inward only
// (src/index.ts, the worker entry, is the one place that wires the adapters in).
// Console: lib/ is the shared kernel and imports no feature and not app/; components/ import no feature; app/ is
// the composition root; a feature imports no other feature, except through ALLOWED_FEATURE_LINKS, each with its
// reason (a piece two features share that has not yet moved down into lib/ or components/).

/** feature -> feature imports allowed today, and why. A new cross-feature import fails the check. */
export const ALLOWED_FEATURE_LINKS: Record<string, string> = {
  'auth -> dashboard': 'the signed-in home page is the dashboard: auth/Dashboard.tsx composes its charts',
  'auth -> demo': 'the sign-in card shows the shared demo notice on the demo host',
  'auth -> signup': 'sign-in sends a person on to where sign-up asked to return (signup/redirect.ts)',
  'blacklist -> contact': 'an address field: contact owns AddressValueInput and the address rules (to move to components/)',
  'broadcast -> account': "the broadcast form reads the organisation's tracking defaults (account/api.ts's useOrganization)",
  'broadcast -> engagement': "the broadcast view's engagement tab is the engagement feature's",
  'campaign -> template': 'the sender label of the test-message dialog (to move to components/)',
  'contact -> engagement': "the contact page shows the contact's unsubscribes and STOPs (engagement's panel)",
  'contact -> field': "the contact form and filters take the organisation's custom fields (field/api.ts)",
  'contact -> tag': "the contact list's tag filter reads the tags' API path",
  'import -> contact': 'a finished import refreshes the contact list (its API path)',
  'import -> field': "the import mapping offers the organisation's custom fields (field/api.ts)",
  'form -> field': "a hosted form asks the organisation's custom fields (field/api.ts)",
  'message -> engagement': "the message view's engagement tab and delivery badge are engagement's",
  'sender -> integration': 'a sender is made on an integration: the form picks one (integration/api.ts)',
  'signup -> pages': "the sign-up host's routes show the static and not-found pages",
};

const featureOf = (file: string) => /^web\/src\/features\/([^/]+)\//.exec(file)?.[1] ?? null;

/** The edges that break a rule, each with the rule it breaks. */
export function forbiddenImports(edges: ImportEdge[]): string[] {
  const broken: string[] = [];
  for (const { from, to } of edges) {
    const target = featureOf(to);
    if (from.startsWith('src/') && from !== 'src/index.ts' && /^(durable-objects|queues)\//.test(to))
      broken.push(`${from} -> ${to}: src/ imports no runtime adapter`);
    if (/^(durable-objects|queues)\//.test(from) && !/^(src|durable-objects|queues)\//.test(to)) broken.push(`${from} -> ${to}: adapters import inward only`);
    if (from.startsWith('durable-objects/') && to.startsWith('queues/')) broken.push(`${from} -> ${to}: one adapter imports no other`);
    if (from.startsWith('queues/') && to.startsWith('durable-objects/')) broken.push(`${from} -> ${to}: one adapter imports no other`);
    if (from.startsWith('web/src/lib/') && /^web\/src\/(app|features)\//.test(to))
      broken.push(`${from} -> ${to}: lib/ is the kernel and imports no app or feature`);
    if (from.startsWith('web/src/components/') && target) broken.push(`${from} -> ${to}: components import no feature`);
    const source = featureOf(from);
    if (source && target && source !== target && !ALLOWED_FEATURE_LINKS[`${source} -> ${target}`])
      broken.push(`${from} -> ${to}: a feature imports no other feature`);
  }
  return broken;
}
