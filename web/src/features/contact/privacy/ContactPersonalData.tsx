import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFileExport, IconTrash } from '@tabler/icons-react';
import type { Contact } from '@shared/contracts/contact';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { useLocation } from 'wouter';
import { EraseDialog } from './EraseDialog';
import { ExportDialog } from './ExportDialog';

/** The API paths whose cached answers may name an erased person. */
const PERSONAL_READS = ['/contact', '/message', '/blacklist', '/activity-log', '/import', '/broadcast', '/dashboard'];

/**
 * The contact's "Personal data" card (GDPR articles 15, 17 and 20): the person's data exported, or erased
 * everywhere the product keeps it. After an erasure the contact lists are read again and the page goes to them.
 */
export function ContactPersonalData({ contact, listHref }: { contact: Contact; listHref: string }) {
  const { t } = useTranslation();
  const { mutate } = useSWRConfig();
  const [, navigate] = useLocation();
  const [dialog, setDialog] = useState<'export' | 'erase' | null>(null);
  const erased = () => {
    setDialog(null);
    // Every cached read that may name the person (their contact, messages, suppressions, log entries, imports'
    // rejections) is read again.
    void mutate((key) => typeof key === 'string' && PERSONAL_READS.some((path) => key.startsWith(path)), undefined, { revalidate: true });
    navigate(listHref);
  };
  return (
    <Paper withBorder p="md" data-testid="privacy-card">
      <Stack gap="xs">
        <Title order={5}>{t('privacy.card.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('privacy.card.text')}
        </Text>
        <Group>
          <Button variant="light" leftSection={<IconFileExport size={16} />} onClick={() => setDialog('export')} data-testid="privacy-export-open">
            {t('privacy.card.export')}
          </Button>
          <Button color="red" variant="outline" leftSection={<IconTrash size={16} />} onClick={() => setDialog('erase')} data-testid="privacy-erase-open">
            {t('privacy.card.erase')}
          </Button>
        </Group>
      </Stack>
      <ExportDialog contactId={contact.id} opened={dialog === 'export'} onClose={() => setDialog(null)} />
      <EraseDialog contact={contact} opened={dialog === 'erase'} onClose={() => setDialog(null)} onErased={erased} />
    </Paper>
  );
}
