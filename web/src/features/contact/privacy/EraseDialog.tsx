import { Alert, Button, Group, List, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Contact } from '@shared/contracts/contact';
import { confirmsErasure, type Erasure } from '@shared/contracts/privacy';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-error';
import { useServices } from '../../../lib/services-context';
import { translateApiError, translateServerMessage } from '../../../lib/server-messages';
import { ErasureResult } from './ErasureResult';
import { PHONE_QUERY } from './phone-query';
import { eraseContact } from './privacy-api';

const REMOVED = ['contact', 'consents', 'suppressions', 'activity', 'messages', 'archives', 'files'] as const;
const KEPT = ['counters', 'digest'] as const;
const OUTSIDE = ['logs', 'systems', 'delivered'] as const;

/**
 * "Erase personal data": what goes, what stays and what is out of the product's reach, then one of the contact's
 * addresses typed to confirm (its name when it has none: the same rule as the server's, confirmsErasure). After
 * the erasure it shows what was reached; `onErased` leaves the contact's page.
 */
export function EraseDialog({ contact, opened, onClose, onErased }: { contact: Contact; opened: boolean; onClose: () => void; onErased: () => void }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const phone = useMediaQuery(PHONE_QUERY) ?? false;
  const [typed, setTyped] = useState('');
  const [erasing, setErasing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [result, setResult] = useState<Erasure | null>(null);
  const expected = contact.addresses[0]?.value ?? contact.name;
  const matches = confirmsErasure(contact, typed);

  const close = () => {
    if (erasing) return;
    if (result) return onErased();
    setTyped('');
    setError(null);
    setFieldError(null);
    onClose();
  };

  const erase = async () => {
    setErasing(true);
    setError(null);
    setFieldError(null);
    try {
      setResult(await eraseContact(client, contact.id, typed));
    } catch (failure) {
      const onField = failure instanceof ApiError ? failure.fields?.confirm?.[0] : undefined;
      if (onField) setFieldError(translateServerMessage(t, onField));
      else setError(translateApiError(t, failure));
    } finally {
      setErasing(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('privacy.erase.title', { name: contact.name })} fullScreen={phone} size="lg" centered>
      {result ? (
        <ErasureResult erasure={result} onDone={onErased} />
      ) : (
        <Stack data-testid="privacy-erase-dialog">
          <Text size="sm">{t('privacy.erase.intro')}</Text>
          <Title order={5}>{t('privacy.erase.removedTitle')}</Title>
          <List size="sm" spacing={4}>
            {REMOVED.map((item) => (
              <List.Item key={item}>{t(`privacy.erase.removed.${item}`)}</List.Item>
            ))}
          </List>
          <Title order={5}>{t('privacy.erase.keptTitle')}</Title>
          <List size="sm" spacing={4}>
            {KEPT.map((item) => (
              <List.Item key={item}>{t(`privacy.erase.kept.${item}`)}</List.Item>
            ))}
          </List>
          <Title order={5}>{t('privacy.erase.outsideTitle')}</Title>
          <List size="sm" spacing={4}>
            {OUTSIDE.map((item) => (
              <List.Item key={item}>{t(`privacy.erase.outside.${item}`)}</List.Item>
            ))}
          </List>
          <Alert color="red" variant="light">
            {t('privacy.erase.irreversible')}
          </Alert>
          {error && (
            <Alert color="red" data-testid="privacy-erase-error">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('privacy.erase.typeToConfirm', { value: expected })}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            error={fieldError}
            autoComplete="off"
            spellCheck={false}
            data-testid="privacy-erase-confirm-input"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={erasing}>
              {t('common.cancel')}
            </Button>
            <Button color="red" disabled={!matches} loading={erasing} onClick={() => void erase()} data-testid="privacy-erase-submit">
              {t('privacy.erase.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
