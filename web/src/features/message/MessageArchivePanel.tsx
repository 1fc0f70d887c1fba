import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconArchive, IconDownload } from '@tabler/icons-react';
import type { MessageArchiveOverview } from '@shared/contracts/retention';
import type { ItemBody } from '@shared/errors';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import { notifyError } from '../../components/common/notify';
import { downloadFile } from '../../lib/download-file';
import { translateApiError } from '../../lib/server-messages';

export const MESSAGE_ARCHIVE_PATH = '/message-archive';

/** Where messages past the retention went: the rule, and each archived month with its download. */
export function MessageArchivePanel() {
  const { t, i18n } = useTranslation();
  const services = useServices();
  const { data } = useSWR<ItemBody<MessageArchiveOverview>>(MESSAGE_ARCHIVE_PATH);
  const [busy, setBusy] = useState<string | null>(null);
  const overview = data?.data;
  if (!overview) return null;
  const number = new Intl.NumberFormat(i18n.language);
  const megabytes = new Intl.NumberFormat(i18n.language, { maximumSignificantDigits: 3 });
  const monthName = new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const download = async (month: string) => {
    setBusy(month);
    try {
      await downloadFile(services.client, `${MESSAGE_ARCHIVE_PATH}/${month}`, `messages-${month}.ndjson.gz`);
    } catch (error) {
      notifyError(translateApiError(t, error));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Alert variant="light" color="gray" icon={<IconArchive size={18} />} title={t('retention.archiveTitle')} data-testid="message-archive">
      <Stack gap="xs">
        <Text size="sm">{t('retention.archiveIntro', { days: overview.retention_days })}</Text>
        {overview.months.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="message-archive-empty">
            {t('retention.archiveEmpty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('retention.month')}</Table.Th>
                  <Table.Th>{t('retention.messages')}</Table.Th>
                  <Table.Th>{t('retention.size')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {overview.months.map((m) => (
                  <Table.Tr key={m.month} data-testid="message-archive-month">
                    <Table.Td>{monthName.format(new Date(`${m.month}-01T00:00:00Z`))}</Table.Td>
                    <Table.Td>{number.format(m.messages)}</Table.Td>
                    <Table.Td>
                      {megabytes.format(m.bytes / 1e6)} {t('dashboard.mb')}
                    </Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          leftSection={<IconDownload size={14} />}
                          loading={busy === m.month}
                          onClick={() => void download(m.month)}
                        >
                          {t('retention.download')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Alert>
  );
}
