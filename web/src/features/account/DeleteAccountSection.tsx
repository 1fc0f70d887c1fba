import { Alert, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { CurrentUser } from '@shared/contracts/auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { translateApiError } from '../../lib/server-messages';
import { useAccountCalls } from './api';

/** The danger zone: deletes the account and all its data (irreversible) after the user types their login. */
export function DeleteAccountSection({ user, demo }: { user: CurrentUser; demo: boolean }) {
  const { t } = useTranslation();
  const { session } = useServices();
  const calls = useAccountCalls();
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const login = user.username;
  // The server compares the login without regard to case.
  const matches = typed.trim().toLowerCase() === login.toLowerCase();

  const close = () => {
    if (deleting) return;
    setOpened(false);
    setTyped('');
    setError(null);
  };

  const remove = async () => {
    if (!matches) return;
    setDeleting(true);
    setError(null);
    try {
      await calls.deleteAccount(user.id, typed.trim());
      setOpened(false);
      // The account and its sessions are gone: clear this browser's session and go to the root.
      await session.logout({ remote: false });
    } catch (failure) {
      setError(translateApiError(t, failure));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Paper withBorder p="lg" style={{ borderColor: 'var(--mantine-color-red-6)' }} data-testid="delete-account">
      <Stack>
        <Title order={3} c="red">
          {t('me.deleteAccount.title')}
        </Title>
        <Text size="sm">{t('me.deleteAccount.text')}</Text>
        <Group>
          <Button color="red" disabled={demo} onClick={() => setOpened(true)} data-testid="delete-account-open">
            {t('me.deleteAccount.button')}
          </Button>
        </Group>
      </Stack>
      <Modal opened={opened} onClose={close} title={t('me.deleteAccount.confirmTitle')} centered>
        <Stack data-testid="delete-account-modal">
          <Text size="sm">{t('me.deleteAccount.confirmText', { login })}</Text>
          {error && (
            <Alert color="red" data-testid="delete-account-error">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('me.deleteAccount.typeLogin', { login })}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-testid="delete-account-login"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-testid="delete-account-cancel">
              {t('common.cancel')}
            </Button>
            <Button color="red" disabled={!matches || demo} loading={deleting} onClick={() => void remove()} data-testid="delete-account-confirm">
              {t('me.deleteAccount.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
