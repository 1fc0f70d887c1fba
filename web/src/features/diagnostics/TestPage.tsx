import { Code, Paper, Table, Title } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { config } from '../../lib/config';
import { useServices } from '../../lib/services-context';
import { currentUserAtom, guestInitAtom } from '../../lib/session-state';
import { readItem, STORAGE_KEYS } from '../../lib/storage';

/** /test: diagnostics (console and server version, language, organisation, signed-in user). */
export function TestPage() {
  const { t, i18n } = useTranslation();
  const { storage } = useServices();
  const user = useAtomValue(currentUserAtom);
  const init = useAtomValue(guestInitAtom);
  const org = user?.organization ?? init?.organization;
  const rows: [string, string, string][] = [
    ['version', t('test.version'), config.version],
    ['server-version', t('test.serverVersion'), readItem(storage, STORAGE_KEYS.version) ?? '—'],
    ['language', t('test.language'), i18n.language],
    ['org', t('test.organization'), org ? `${org.name} (${org.domain}, #${org.id})` : '—'],
    ['user', t('test.user'), user ? `${user.name || user.username} (#${user.id})` : t('test.noUser')],
  ];
  return (
    <Paper withBorder p="lg" maw={720} data-testid="diagnostics">
      <Title order={2} mb="md">
        {t('test.title')}
      </Title>
      <Table>
        <Table.Tbody>
          {rows.map(([key, label, value]) => (
            <Table.Tr key={key}>
              <Table.Th w={220}>{label}</Table.Th>
              <Table.Td>
                <Code data-testid={`test-${key}`}>{value}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
