import { ActionIcon, Alert, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { API_KEY_HEADER } from '@shared/contracts/account';
import type { CurrentUser } from '@shared/contracts/auth';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { i18n as I18n } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Copies text to the clipboard when the browser allows it; false when it does not (no API, no permission). */
export async function copyToClipboard(value: string): Promise<boolean> {
  try {
    if (typeof navigator === 'undefined' || !navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    return false;
  }
}

/** The new key, shown once: copied at once when the clipboard allows, with a copy button and the header to use. */
export function ApiKeyReveal({ apiKey, username, orgDomain, onClose }: { apiKey: string; username: string; orgDomain: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [autoCopied, setAutoCopied] = useState(false);
  useEffect(() => {
    let active = true;
    void copyToClipboard(apiKey).then((ok) => active && setAutoCopied(ok));
    return () => {
      active = false;
    };
  }, [apiKey]);

  return (
    <Stack data-testid="api-key-reveal">
      <Alert color="yellow" data-testid="api-key-once">
        {t('me.api.shownOnce')}
      </Alert>
      <Group gap="xs" wrap="nowrap">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="api-key-value">
          {apiKey}
        </Code>
        <CopyButton value={apiKey} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('me.api.copied') : t('me.api.copy')} withArrow>
              <ActionIcon color={copied ? 'teal' : 'gray'} variant="subtle" onClick={copy} aria-label={t('me.api.copy')} data-testid="api-key-copy">
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {autoCopied && (
        <Text size="sm" c="teal" data-testid="api-key-auto-copied">
          {t('me.api.autoCopied')}
        </Text>
      )}
      <Text size="sm" c="dimmed">
        {t('me.api.usage', { header: API_KEY_HEADER })}
      </Text>
      <Code block>{`${API_KEY_HEADER}: ${username}:${apiKey}\nX-ORG: ${orgDomain}`}</Code>
      <Group justify="flex-end">
        <Button onClick={onClose} data-testid="api-key-close">
          {t('me.api.done')}
        </Button>
      </Group>
    </Stack>
  );
}

/** Opens the modal that shows a new or regenerated key once (it survives leaving the form for the list). */
export function showApiKeyOnce(i18n: I18n, apiKey: string, user: Pick<CurrentUser, 'username' | 'organization'>): void {
  const id = modals.open({
    title: i18n.t('me.api.newKeyTitle'),
    size: 'lg',
    closeOnClickOutside: false,
    children: <ApiKeyReveal apiKey={apiKey} username={user.username} orgDomain={user.organization.domain} onClose={() => modals.close(id)} />,
  });
}
