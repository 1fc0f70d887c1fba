import { Paper, Table, Title } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { currentUserAtom } from '../../lib/session-state';

/** /me/profile: the signed-in user's details, read-only for now. */
export function MyProfilePage() {
  const { t } = useTranslation();
  const user = useAtomValue(currentUserAtom);
  if (!user) return null;
  const rows: [string, string][] = [
    [t('profile.name'), user.name],
    [t('profile.username'), user.username],
    [t('profile.email'), user.email ?? '—'],
    [t('profile.organization'), `${user.organization.name} (${user.organization.domain})`],
  ];
  return (
    <AccountLayout>
      <Paper withBorder p="lg" data-testid="my-profile">
        <Title order={3} mb="md">
          {t('account.profile')}
        </Title>
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={200}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </AccountLayout>
  );
}
