import { ActionIcon, Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * The signing secret, shown this once (after adding an endpoint or rotating its secret): the API never answers it
 * again, so the modal says so and offers a copy button. Closing it forgets the secret.
 */
export function SecretModal({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={secret !== null} onClose={onClose} title={t('webhooks.secretTitle')} data-testid="webhook-secret-modal">
      {secret && (
        <Stack>
          <Alert color="yellow">{t('webhooks.secretOnce')}</Alert>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Code block style={{ flex: 1, minWidth: 0, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="webhook-secret">
              {secret}
            </Code>
            <CopyButton value={secret} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t('webhooks.copied') : t('webhooks.copySecret')} withArrow>
                  <ActionIcon
                    color={copied ? 'teal' : 'gray'}
                    variant="subtle"
                    onClick={copy}
                    aria-label={t('webhooks.copySecret')}
                    data-testid="webhook-secret-copy"
                    data-copied={copied}
                  >
                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
          <Text size="xs" c="dimmed">
            {t('webhooks.secretHint')}
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="webhook-secret-done">
              {t('webhooks.secretDone')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
