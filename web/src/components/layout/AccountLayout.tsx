import { Alert, Grid, NavLink, Paper, Stack, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useRouteTable } from '../../lib/services-context';
import { guestInitAtom } from '../../lib/session-state';
import { visibleAccountNav } from './navigation';

/**
 * The account area: side navigation (organization, security, api, profile, session: those that exist) beside
 * the page, and in the shared demo a read-only banner (the pages disable their forms and actions there).
 */
export function AccountLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const table = useRouteTable();
  const demo = useAtomValue(guestInitAtom)?.settings.demo === true;
  return (
    <Stack>
      <Title order={2}>{t('account.title')}</Title>
      {demo && (
        <Alert color="yellow" icon={<IconLock size={18} />} data-testid="demo-banner">
          {t('me.demoBanner')}
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, sm: 3 }}>
          <Paper withBorder p="xs" component="nav" aria-label={t('account.title')}>
            {visibleAccountNav(table).map((item) => (
              <Link key={item.key} href={item.href} asChild>
                <NavLink
                  component="a"
                  href={item.href}
                  label={t(item.labelKey)}
                  active={location === item.href || location.startsWith(`${item.href}/`)}
                  data-testid={`account-nav-${item.key}`}
                />
              </Link>
            ))}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 9 }}>{children}</Grid.Col>
      </Grid>
    </Stack>
  );
}
