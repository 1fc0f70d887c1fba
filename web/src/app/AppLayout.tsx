import { Anchor, AppShell, Badge, Burger, Group, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ChatWidget } from '../features/chat-widget/ChatWidget';
import { currentUserAtom, guestInitAtom } from '../lib/session-state';
import { AccountMenu } from '../components/layout/AccountMenu';
import { LanguageSwitcher } from '../components/layout/LanguageSwitcher';
import { MainNav } from '../components/layout/MainNav';
import classes from './AppLayout.module.css';
import { useRemoveBootShell } from './boot-shell';

// The signed-in user's background work (preloadables, the live channel's import notifications): loaded after sign-in.
const SignedInEffects = lazy(() => import('./SignedInEffects').then((m) => ({ default: m.SignedInEffects })));

/** The console frame: header (brand, organisation, language, account menu) and, when signed in, the main navigation. */
export function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useAtomValue(currentUserAtom);
  const init = useAtomValue(guestInitAtom);
  const [opened, { toggle, close }] = useDisclosure(false);
  const orgName = user?.organization.name ?? init?.organization?.name;
  // The first screen of the console is drawn: the html's sign-in shell gives way to it (boot-shell.ts).
  useRemoveBootShell();

  return (
    <AppShell
      transitionDuration={0}
      header={{ height: 56 }}
      navbar={user ? { width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } } : undefined}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {user && <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.toggle')} />}
            <Link href="/" asChild>
              <Anchor underline="never" c="inherit">
                <Title order={3}>{t('app.name')}</Title>
              </Anchor>
            </Link>
            {orgName && (
              <Badge variant="light" visibleFrom="xs" data-testid="org-name">
                {orgName}
              </Badge>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitcher />
            {user && <AccountMenu user={user} />}
          </Group>
        </Group>
      </AppShell.Header>
      {user && (
        <AppShell.Navbar p="sm" withBorder={false}>
          <MainNav onNavigate={close} />
        </AppShell.Navbar>
      )}
      <AppShell.Main className={user ? classes.main : undefined}>{children}</AppShell.Main>
      {user && <ChatWidget />}
      {user && (
        <Suspense fallback={null}>
          <SignedInEffects />
        </Suspense>
      )}
    </AppShell>
  );
}
