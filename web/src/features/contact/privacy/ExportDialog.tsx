import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import type { ExportFormat } from '@shared/contracts/privacy';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../../lib/services-context';
import { translateApiError } from '../../../lib/server-messages';
import { PHONE_QUERY } from './phone-query';
import { downloadContactExport } from './privacy-api';

/** The parts of an export, in the order the document holds them (the dialog lists them for the person asking). */
const PARTS = ['contact', 'subscriptions', 'unsubscribes', 'suppressions', 'messages', 'archived', 'activity'] as const;

/** The two downloads, the readable page first and the JSON (the machine-readable one) as the main button. */
const DOWNLOADS: { format: ExportFormat; variant: 'light' | 'filled' }[] = [
  { format: 'html', variant: 'light' },
  { format: 'json', variant: 'filled' },
];

/** "Export data": what the export holds, and its two downloads (JSON, a readable page). */
export function ExportDialog({ contactId, opened, onClose }: { contactId: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const phone = useMediaQuery(PHONE_QUERY) ?? false;
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (format: ExportFormat) => {
    setBusy(format);
    setError(null);
    try {
      await downloadContactExport(client, contactId, format);
    } catch (failure) {
      setError(translateApiError(t, failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('privacy.export.title')} fullScreen={phone} size="lg" centered>
      <Stack data-testid="privacy-export-dialog">
        <Text size="sm">{t('privacy.export.intro')}</Text>
        <List size="sm" spacing={4}>
          {PARTS.map((part) => (
            <List.Item key={part}>{t(`privacy.export.parts.${part}`)}</List.Item>
          ))}
        </List>
        <Text size="sm" c="dimmed">
          {t('privacy.export.logged')}
        </Text>
        {error && (
          <Alert color="red" data-testid="privacy-export-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('privacy.close')}
          </Button>
          {DOWNLOADS.map(({ format, variant }) => (
            <Button
              key={format}
              variant={variant}
              leftSection={<IconDownload size={16} />}
              loading={busy === format}
              disabled={busy !== null}
              onClick={() => void download(format)}
              data-testid={`privacy-export-${format}`}
            >
              {t(`privacy.export.${format}`)}
            </Button>
          ))}
        </Group>
      </Stack>
    </Modal>
  );
}
