import { NavLink, Stack } from '@mantine/core';
import {
  IconAddressBook,
  IconHome,
  IconMail,
  IconMessages,
  IconPlugConnected,
  IconSend,
  IconSpeakerphone,
  IconTemplate,
  IconWorldWww,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useRouteTable } from '../../lib/services-context';
import { visibleMainNav } from './navigation';

const ICONS: Record<string, ComponentType<{ size?: number; stroke?: number }>> = {
  home: IconHome,
  contacts: IconAddressBook,
  integrations: IconPlugConnected,
  domains: IconWorldWww,
  templates: IconTemplate,
  campaigns: IconSpeakerphone,
  broadcasts: IconSend,
  messages: IconMessages,
};

/** True when the current path is the link or below it (the root only matches itself). */
export function isActivePath(location: string, href: string): boolean {
  if (href === '/') return location === '/';
  return location === href || location.startsWith(`${href}/`);
}

/** The main navigation: entries whose group has at least one existing route. */
export function MainNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const table = useRouteTable();
  return (
    <Stack gap={4} component="nav" aria-label={t('nav.main')}>
      {visibleMainNav(table).map((item) => {
        const Icon = ICONS[item.key] ?? IconMail;
        return (
          <Link key={item.key} href={item.href} asChild onClick={onNavigate}>
            <NavLink
              component="a"
              href={item.href}
              label={t(item.labelKey)}
              leftSection={<Icon size={18} stroke={1.6} />}
              active={isActivePath(location, item.href)}
              data-testid={`nav-${item.key}`}
            />
          </Link>
        );
      })}
    </Stack>
  );
}
