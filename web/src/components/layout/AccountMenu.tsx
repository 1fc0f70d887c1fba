import { Avatar, Box, Button, Menu } from '@mantine/core';
import type { CurrentUser } from '@shared/contracts/auth';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRouteTable, useServices } from '../../lib/services-context';
import { visibleAccountNav } from './navigation';

/** The account menu: the account-area pages that exist, and sign out. */
export function AccountMenu({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const { session } = useServices();
  const table = useRouteTable();
  const label = user.name || user.username;
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          data-testid="account-menu"
          aria-label={label}
          leftSection={
            <Avatar size={24} radius="xl">
              {label.slice(0, 1).toUpperCase()}
            </Avatar>
          }
        >
          {/* On a phone the header has room for the initial only: the name would push the language select out. */}
          <Box component="span" visibleFrom="sm">
            {label}
          </Box>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('account.title')}</Menu.Label>
        {visibleAccountNav(table).map((item) => (
          <Link key={item.key} href={item.href} asChild>
            <Menu.Item component="a" href={item.href} leftSection={<IconUser size={16} />} data-testid={`account-${item.key}`}>
              {t(item.labelKey)}
            </Menu.Item>
          </Link>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} data-testid="signout" onClick={() => void session.logout()}>
          {t('auth.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
