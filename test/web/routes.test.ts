import { describe, expect, it } from 'vitest';
import { config } from '../../web/src/lib/config';
import { accessOf, canOpen, guardRedirect } from '../../web/src/lib/route-access';
import { runtimeSettingsOf } from '../../web/src/lib/runtime-settings';
import { consoleRouteTable } from '../../web/src/app/route-specs';
import { buildRouteTable, matchPath, pathOf, resolveRoute, type RouteSpec } from '../../web/src/lib/route-table';
import { breadcrumbTrail, groupSections, SECTIONS, visibleAccountNav, visibleMainNav } from '../../web/src/components/layout/navigation';

const Dummy = () => null;
const lists = { commonRoutes: ['home', 'error_404', 'social_login'], guestRoutes: ['password_reset'] };
const specs: RouteSpec[] = [
  { name: 'home', path: '/', component: Dummy },
  { name: 'error_404', path: '/page-not-found', component: Dummy },
  { name: 'social_login', path: '/social-login', component: Dummy },
  { name: 'password_reset', path: '/password-reset', component: Dummy },
  { name: 'test', path: '/test', component: Dummy },
  { name: 'tag_list', path: '/tag', component: Dummy },
  { name: 'tag_update', path: '/tag/update/:id', component: Dummy },
];
const table = (disabledRoutes: string[] = [], staticPages = ['terms', 'privacy']) =>
  buildRouteTable(specs, { ...lists, disabledRoutes, staticPages, staticPage: Dummy });

describe('route access rules', () => {
  it('classifies routes: common defaults and pages, guest list, the rest user', () => {
    expect(accessOf('home', false, lists)).toBe('common');
    expect(accessOf('error_404', false, lists)).toBe('common');
    expect(accessOf('social_login', false, lists)).toBe('common');
    expect(accessOf('terms', true, lists)).toBe('common');
    expect(accessOf('password_reset', false, lists)).toBe('guest');
    expect(accessOf('tag_list', false, lists)).toBe('user');
  });

  it('lets a guest open guest and common routes only', () => {
    expect(canOpen('common', false)).toBe(true);
    expect(canOpen('guest', false)).toBe(true);
    expect(canOpen('user', false)).toBe(false);
  });

  it('lets a signed-in user open common routes and anything not in the guest list', () => {
    expect(canOpen('common', true)).toBe(true);
    expect(canOpen('user', true)).toBe(true);
    expect(canOpen('guest', true)).toBe(false);
  });

  it('redirects to / when a route may not be opened, and never guards the unsubscribe page', () => {
    const t = table();
    const route = (name: string) => t.find((r) => r.name === name)!;
    expect(guardRedirect(route('tag_list'), false)).toBe('/');
    expect(guardRedirect(route('tag_list'), true)).toBeNull();
    expect(guardRedirect(route('password_reset'), true)).toBe('/');
    expect(guardRedirect(route('password_reset'), false)).toBeNull();
    expect(guardRedirect(route('terms'), false)).toBeNull();
    expect(guardRedirect(route('terms'), true)).toBeNull();
  });

  it('serves static pages at /{pageName}, flagged as pages (common)', () => {
    const t = table([], ['terms', 'privacy', 'imprint']);
    for (const name of ['terms', 'privacy', 'imprint']) {
      const match = resolveRoute(t, `/${name}`);
      expect(match?.route.name).toBe(name);
      expect(match?.route.page).toBe(true);
      expect(match?.route.access).toBe('common');
    }
  });

  it('removes disabled routes by name', () => {
    const t = table(['test', 'terms']);
    expect(t.map((r) => r.name)).not.toContain('test');
    expect(resolveRoute(t, '/test')).toBeNull();
    expect(resolveRoute(t, '/terms')).toBeNull();
    expect(pathOf(t, 'test')).toBeNull();
  });
});

describe('route matching', () => {
  it('matches params and ignores query and trailing slash', () => {
    expect(matchPath('/tag/update/:id', '/tag/update/42')).toEqual({ id: '42' });
    expect(matchPath('/tag', '/tag/')).toEqual({});
    expect(matchPath('/tag', '/tag?search=x')).toEqual({});
    expect(matchPath('/tag', '/tags')).toBeNull();
    expect(matchPath('/tag/update/:id', '/tag/update/')).toBeNull();
  });

  it('leaves unknown paths unmatched (the 404 page)', () => {
    expect(resolveRoute(table(), '/nowhere')).toBeNull();
    expect(resolveRoute(table(), '/page-not-found')?.route.name).toBe('error_404');
  });

  it('builds paths of named routes', () => {
    expect(pathOf(table(), 'tag_update', { id: 7 })).toBe('/tag/update/7');
  });
});

describe('the console route table', () => {
  const t = consoleRouteTable(runtimeSettingsOf(null));
  const byName = Object.fromEntries(t.map((r) => [r.name, r]));

  it('has the routes of this issue at their paths', () => {
    expect(byName.home.path).toBe('/');
    expect(byName.error_404.path).toBe('/page-not-found');
    expect(byName.password_reset.path).toBe('/password-reset');
    expect(byName.tag_list.path).toBe('/tag');
    expect(byName.tag_create.path).toBe('/tag/create');
    expect(byName.tag_update.path).toBe('/tag/update/:id');
    expect(byName.my_profile.path).toBe('/me/profile');
    expect(byName.test.path).toBe('/test');
    expect(byName.terms.path).toBe('/terms');
    expect(byName.privacy.path).toBe('/privacy');
    // The public unsubscribe page is the worker's (plain html, src/modules/unsubscribe/page), not a console route.
    expect(byName.unsubscribe).toBeUndefined();
  });

  it('applies the default access lists', () => {
    expect(config.disabledRoutes).toEqual([]);
    expect(byName.home.access).toBe('common');
    expect(byName.social_login.access).toBe('common');
    expect(byName.password_reset.access).toBe('guest');
    expect(byName.terms.access).toBe('common');
    expect(byName.tag_list.access).toBe('user');
    expect(byName.my_profile.access).toBe('user');
  });

  it('resolves /tag/create to the create route, not the update route', () => {
    expect(resolveRoute(t, '/tag/create')?.route.name).toBe('tag_create');
    expect(resolveRoute(t, '/tag/update/3')?.params).toEqual({ id: '3' });
  });
});

describe('navigation', () => {
  const t = consoleRouteTable(runtimeSettingsOf(null));

  it('shows only entries whose group has an existing route; Contacts leads to /contact', () => {
    expect(
      visibleMainNav(t)
        .map((e) => [e.key, e.href])
        .slice(0, 2),
    ).toEqual([
      ['home', '/'],
      ['contacts', '/contact'],
    ]);
  });

  it('hides Contacts when no route of its group exists', () => {
    const contactsGroup = ['contact_', 'tag_', 'field_', 'blacklist_', 'subscription_', 'form_'];
    const withoutGroup = t.filter((r) => !contactsGroup.some((prefix) => r.name.startsWith(prefix)));
    expect(visibleMainNav(withoutGroup).map((e) => e.key)).not.toContain('contacts');
  });

  it('prefers the first existing route of the group', () => {
    const withoutContacts = t.filter((r) => !r.name.startsWith('contact_'));
    expect(visibleMainNav(withoutContacts).find((e) => e.key === 'contacts')?.href).toBe('/tag');
  });

  it('builds breadcrumbs Contacts > Tags, and Contacts > Tags > step on entity pages', () => {
    expect(breadcrumbTrail(t, 'tags')).toEqual([
      { labelKey: 'nav.contacts', href: '/contact' },
      { labelKey: 'nav.tags', href: null },
    ]);
    expect(breadcrumbTrail(t, 'tags', { labelKey: 'common.create' })).toEqual([
      { labelKey: 'nav.contacts', href: '/contact' },
      { labelKey: 'nav.tags', href: '/tag' },
      { labelKey: 'common.create', href: null },
    ]);
  });

  it("starts every trail with the navigation entry its section is reached from: a broadcast's with Broadcasts, not Templates", () => {
    expect(breadcrumbTrail(t, 'broadcasts', { labelKey: 'broadcasts.view', text: 'Launch' })).toEqual([
      { labelKey: 'nav.broadcasts', href: '/broadcast' },
      { labelKey: 'broadcasts.view', text: 'Launch', href: null },
    ]);
    expect(breadcrumbTrail(t, 'campaigns')).toEqual([{ labelKey: 'nav.campaigns', href: null }]);
    // Every section: the first crumb is a main navigation entry, and the one whose link leads to this section's group.
    const nav = visibleMainNav(t);
    const firsts = Object.fromEntries(
      (Object.keys(SECTIONS) as (keyof typeof SECTIONS)[]).map((section) => [section, breadcrumbTrail(t, section, { labelKey: 'x' })[0].labelKey]),
    );
    expect(firsts).toEqual({
      contacts: 'nav.contacts',
      tags: 'nav.contacts',
      fields: 'nav.contacts',
      import: 'nav.contacts',
      blacklist: 'nav.contacts',
      subscriptions: 'nav.contacts',
      forms: 'nav.contacts',
      templates: 'nav.templates',
      campaigns: 'nav.campaigns',
      broadcasts: 'nav.broadcasts',
      integrations: 'nav.integrations',
      senders: 'nav.integrations',
      webhooks: 'nav.integrations',
      domains: 'nav.domains',
      messages: 'nav.messages',
    });
    for (const labelKey of Object.values(firsts)) expect(nav.map((e) => e.labelKey)).toContain(labelKey);
  });

  it('lists only existing account-area routes, in the spec order', () => {
    expect(visibleAccountNav(t).map((e) => [e.key, e.href])).toEqual([
      ['organization', '/me/organization'],
      ['organization-keys', '/me/organization-keys'],
      ['security', '/me/security'],
      ['api', '/me/api'],
      ['profile', '/me/profile'],
      ['session', '/me/session'],
    ]);
    const without = t.filter((route) => route.name !== 'my_api' && route.name !== 'my_organization_keys');
    expect(visibleAccountNav(without).map((e) => e.key)).toEqual(['organization', 'security', 'profile', 'session']);
  });
});

describe('section tabs', () => {
  const t = consoleRouteTable(runtimeSettingsOf(null));
  it("list every existing section of a page's group, so tags, fields, the blacklist and senders are one click away", () => {
    const keys = (section: Parameters<typeof groupSections>[1]) => groupSections(t, section).map((s) => `${s.key} ${s.href}`);
    expect(keys('tags')).toEqual([
      'contacts /contact',
      'tags /tag',
      'fields /field',
      'import /contact/import',
      'blacklist /blacklist',
      'subscriptions /subscription',
      'forms /form',
    ]);
    expect(keys('senders')).toEqual(['integrations /integration', 'senders /sender', 'domains /domain', 'webhooks /webhook']);
    expect(keys('broadcasts')).toEqual(['templates /template', 'campaigns /campaign', 'broadcasts /broadcast']);
    expect(keys('messages')).toEqual(['messages /message']);
    expect(
      groupSections(
        t.filter((r) => r.name !== 'field_list'),
        'tags',
      ).map((s) => s.key),
    ).not.toContain('fields');
  });
});
