import { Button, Group, Stack, Table, Text } from '@mantine/core';
import type { Erasure } from '@shared/contracts/privacy';
import { useTranslation } from 'react-i18next';

/** What an erasure reached, as the server counted it (counts only: nothing of the person is left to show). */
export function ErasureResult({ erasure, onDone }: { erasure: Erasure; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const rows: [string, string][] = [
    ['messages', number.format(erasure.messages)],
    ['archives', t('privacy.result.ofTotal', { n: number.format(erasure.archive_objects_rewritten), total: number.format(erasure.archive_objects_total) })],
    ['archivedMessages', number.format(erasure.archived_messages)],
    ['importFiles', number.format(erasure.import_files_rewritten)],
    ['keptMails', number.format(erasure.kept_mails_deleted)],
    ['suppressions', number.format(erasure.suppressions_removed)],
    ['activity', number.format(erasure.activity_entries_cleared)],
  ];
  return (
    <Stack data-testid="privacy-erase-result">
      <Text size="sm">{t('privacy.result.done')}</Text>
      <Table>
        <Table.Tbody>
          {rows.map(([key, value]) => (
            <Table.Tr key={key} data-testid={`privacy-erase-count-${key}`}>
              <Table.Td>{t(`privacy.result.${key}`)}</Table.Td>
              <Table.Td style={{ textAlign: 'right' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid="privacy-erase-done">
          {t('privacy.result.toContacts')}
        </Button>
      </Group>
    </Stack>
  );
}
