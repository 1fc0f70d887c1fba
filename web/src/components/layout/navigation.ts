import { pathOf, type RouteDef } from '../../lib/route-table';

/** A section of the console: its label and list route (breadcrumb middle step). */
export interface Section {
  labelKey: string;
  listRoute: string;
}

/** Every section the spec names, whether built yet or not; navigation shows only those whose route exists. */
export const SECTIONS = {
  contacts: { labelKey: 'nav.contacts', listRoute: 'contact_list' },
  tags: { labelKey: 'nav.tags', listRoute: 'tag_list' },
  fields: { labelKey: 'nav.fields', listRoute: 'field_list' },
  import: { labelKey: 'nav.import', listRoute: 'contact_import' },
  blacklist: { labelKey: 'nav.blacklist', listRoute: 'blacklist_list' },
  subscriptions: { labelKey: 'nav.subscriptions', listRoute: 'subscription_list' },
  forms: { labelKey: 'forms.nav', listRoute: 'form_list' },
  templates: { labelKey: 'nav.templates', listRoute: 'template_list' },
  campaigns: { labelKey: 'nav.campaigns', listRoute: 'campaign_list' },
  broadcasts: { labelKey: 'nav.broadcasts', listRoute: 'broadcast_list' },
  integrations: { labelKey: 'nav.integrations', listRoute: 'integration_list' },
  senders: { labelKey: 'nav.senders', listRoute: 'sender_list' },
  domains: { labelKey: 'nav.domains', listRoute: 'domain_list' },
  webhooks: { labelKey: 'webhooks.nav', listRoute: 'webhook_list' },
  messages: { labelKey: 'nav.messages', listRoute: 'message_list' },
} satisfies Record<string, Section>;

export type SectionKey = keyof typeof SECTIONS;

/** Breadcrumb groups (spec section 2, Navigation): the first section names the group. */
export const BREADCRUMB_GROUPS: Record<string, SectionKey[]> = {
  contacts: ['contacts', 'tags', 'fields', 'import', 'blacklist', 'subscriptions', 'forms'],
  templates: ['templates', 'campaigns', 'broadcasts'],
  integrations: ['integrations', 'senders', 'domains', 'webhooks'],
  messages: ['messages'],
};

/** A main navigation entry: its group, and optionally its own sections when it is not the group's head. */
interface NavEntry {
  key: string;
  labelKey: string;
  group?: string;
  sections?: SectionKey[];
  routes?: string[];
}

/** Main navigation (spec section 2): home, contacts, integrations, domains, templates, campaigns, broadcasts, messages. */
export const MAIN_NAV: NavEntry[] = [
  { key: 'home', labelKey: 'nav.home', routes: ['home'] },
  { key: 'contacts', labelKey: 'nav.contacts', group: 'contacts' },
  { key: 'integrations', labelKey: 'nav.integrations', group: 'integrations' },
  // Sending domains are an entry of their own (a broken one needs to be found), and a tab beside senders.
  { key: 'domains', labelKey: 'nav.domains', group: 'integrations', sections: ['domains'] },
  { key: 'templates', labelKey: 'nav.templates', group: 'templates' },
  { key: 'campaigns', labelKey: 'nav.campaigns', group: 'templates', sections: ['campaigns'] },
  { key: 'broadcasts', labelKey: 'nav.broadcasts', group: 'templates', sections: ['broadcasts'] },
  { key: 'messages', labelKey: 'nav.messages', group: 'messages' },
];

/** The account-area side navigation (spec section 2): only routes that exist are shown. */
export const ACCOUNT_NAV = [
  { key: 'organization', labelKey: 'account.organization', route: 'my_organization' },
  { key: 'organization-keys', labelKey: 'orgKeys.nav', route: 'my_organization_keys' },
  { key: 'security', labelKey: 'account.security', route: 'my_security' },
  { key: 'api', labelKey: 'account.api', route: 'my_api' },
  { key: 'profile', labelKey: 'account.profile', route: 'my_profile' },
  { key: 'session', labelKey: 'account.session', route: 'my_session' },
];

/** A link ready to render. */
export interface NavLinkItem {
  key: string;
  labelKey: string;
  href: string;
  /** Route names under this entry, for the active state. */
  routes: string[];
}

function routesOf(entry: NavEntry): string[] {
  if (entry.routes) return entry.routes;
  const sections = entry.sections ?? BREADCRUMB_GROUPS[entry.group ?? ''] ?? [];
  return sections.map((key) => SECTIONS[key].listRoute);
}

/** The path of the first route in the list that exists, or null. */
export function firstExistingPath(table: RouteDef[], routeNames: string[]): string | null {
  for (const name of routeNames) {
    const path = pathOf(table, name);
    if (path) return path;
  }
  return null;
}

/** Main navigation entries that lead somewhere: each links to the first existing route of its group; the rest are hidden. */
export function visibleMainNav(table: RouteDef[]): NavLinkItem[] {
  return MAIN_NAV.flatMap((entry) => {
    const routes = routesOf(entry);
    const href = firstExistingPath(table, routes);
    return href ? [{ key: entry.key, labelKey: entry.labelKey, href, routes }] : [];
  });
}

/** Account-area links whose routes exist. */
export function visibleAccountNav(table: RouteDef[]): NavLinkItem[] {
  return ACCOUNT_NAV.flatMap((item) => {
    const href = pathOf(table, item.route);
    return href ? [{ key: item.key, labelKey: item.labelKey, href, routes: [item.route] }] : [];
  });
}

/** One breadcrumb step; href null for the current page. */
export interface Crumb {
  labelKey: string;
  href: string | null;
  /** Literal text instead of a translation (an item's name). */
  text?: string;
}

/** The group a section belongs to (its own key for a section alone). */
function groupOf(section: SectionKey): string | undefined {
  return Object.keys(BREADCRUMB_GROUPS).find((key) => BREADCRUMB_GROUPS[key].includes(section));
}

/** The sections of `section`'s group whose list routes exist, with their paths: the section tabs. */
export function groupSections(table: RouteDef[], section: SectionKey): { key: SectionKey; labelKey: string; href: string }[] {
  const group = groupOf(section);
  return (group ? BREADCRUMB_GROUPS[group] : [section]).flatMap((key) => {
    const href = pathOf(table, SECTIONS[key].listRoute);
    return href ? [{ key, labelKey: SECTIONS[key].labelKey, href }] : [];
  });
}

/**
 * The main navigation entry a section is reached from: the entry that has it as its own section (Campaigns,
 * Broadcasts), else the entry of its group (Tags under Contacts).
 */
function navEntryOf(section: SectionKey): NavEntry | undefined {
  return MAIN_NAV.find((entry) => entry.sections?.includes(section)) ?? MAIN_NAV.find((entry) => !entry.sections && entry.group === groupOf(section));
}

/**
 * Breadcrumbs of a section page, following the main navigation: the entry it is reached from (when that entry's
 * first section is another one) > section > current step (optional). Broadcasts and Campaigns are entries of their
 * own, so their trails start with themselves, not with Templates.
 */
export function breadcrumbTrail(table: RouteDef[], section: SectionKey, current?: Omit<Crumb, 'href'>): Crumb[] {
  const entry = navEntryOf(section);
  const trail: Crumb[] = [];
  const entrySections = entry?.sections ?? BREADCRUMB_GROUPS[entry?.group ?? ''] ?? [section];
  if (entry && entrySections[0] !== section) {
    trail.push({ labelKey: entry.labelKey, href: firstExistingPath(table, routesOf(entry)) });
  }
  trail.push({ labelKey: SECTIONS[section].labelKey, href: current ? pathOf(table, SECTIONS[section].listRoute) : null });
  if (current) trail.push({ ...current, href: null });
  return trail;
}
