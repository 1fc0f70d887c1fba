import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A labelled value to paste at a DNS provider: the text as a code block (wrapping, never cut) and a copy button. */
export function CopyField({ label, value, copyLabel, testId, hint }: { label: string; value: string; copyLabel: string; testId: string; hint?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="xs" fw={600} c="dimmed">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, minWidth: 0, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid={`${testId}-text`}>
          {value}
        </Code>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('domains.copied') : copyLabel} withArrow>
              <ActionIcon color={copied ? 'teal' : 'gray'} variant="subtle" onClick={copy} aria-label={copyLabel} data-testid={testId} data-copied={copied}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
