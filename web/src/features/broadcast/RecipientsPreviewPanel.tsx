import { Alert, Loader, Paper, Table, Text } from '@mantine/core';
import type { RecipientsPreview } from '@shared/contracts/broadcast';
import { useTranslation } from 'react-i18next';
import { translateServerMessage } from '../../lib/server-messages';

/** The live count of the contacts the filter selects, and a few of them with the address each would get. */
export function RecipientsPreviewPanel({ preview, loading, failed }: { preview: RecipientsPreview | null; loading: boolean; failed: boolean }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm" data-testid="recipients-preview">
      <Text fw={600} size="sm" mb={4}>
        {t('broadcasts.preview.title')} {loading && <Loader size={12} ml={6} />}
      </Text>
      {failed && <Alert color="red">{t('broadcasts.preview.failed')}</Alert>}
      {preview && (
        <>
          <Text size="sm" data-testid="recipients-total" data-total={preview.total}>
            {t('broadcasts.preview.total', { count: preview.total })}
            {preview.skipped ? ` ${t('broadcasts.preview.skipped', { count: preview.skipped })}` : ''}
          </Text>
          {preview.total === 0 ? (
            <Text size="sm" c="dimmed">
              {t('broadcasts.preview.none')}
            </Text>
          ) : (
            <Table mt="xs" fz="sm" data-testid="recipients-sample">
              <Table.Tbody>
                {preview.sample.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>{row.name}</Table.Td>
                    <Table.Td>{row.address ?? '—'}</Table.Td>
                    <Table.Td c="dimmed">{row.skipped_reason ? translateServerMessage(t, row.skipped_reason) : ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Paper>
  );
}
