import { Alert, Badge, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { SPF_RELAY_UNKNOWN, type DomainRecord } from '@shared/contracts/domain';
import { useTranslation } from 'react-i18next';
import { translateServerMessage } from '../../lib/server-messages';
import { CopyField } from './CopyField';
import { RecordStatusBadge } from './domain-status';

/** A known problem or reason code's words, else the code as the API sent it. */
function codeText(t: (key: string, options?: Record<string, unknown>) => string, group: 'problems' | 'reasons', code: string): string {
  return t(`domains.${group}.${code.toLowerCase()}`, { defaultValue: code });
}

/**
 * One record to publish: what it is for (required or advised), its name, type and value with copy buttons (the whole
 * value, and a long DKIM key's strings quoted as a zone file takes them), and its last check with what was found.
 */
export function DomainRecordCard({ record }: { record: DomainRecord }) {
  const { t } = useTranslation();
  const kind = record.kind;
  const bad = record.status === 'missing' || record.status === 'wrong';
  return (
    <Paper
      withBorder
      p="md"
      data-testid={`record-${kind}`}
      data-status={record.status}
      style={bad && record.required ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Title order={4}>{t(`domains.kinds.${kind}`)}</Title>
            <Text size="xs" c="dimmed">
              {t(`domains.kindHints.${kind}`)}
            </Text>
          </Stack>
          <Group gap={6}>
            <Badge variant="outline" color={record.required ? 'blue' : 'gray'} data-testid="record-required">
              {t(record.required ? 'domains.required' : 'domains.advised')}
            </Badge>
            <RecordStatusBadge status={record.status} />
          </Group>
        </Group>
        <CopyField label={t('domains.recordFields.name')} value={record.name} copyLabel={t('domains.copyName')} testId={`record-copy-name-${kind}`} />
        <Group gap="xs">
          <Text size="xs" fw={600} c="dimmed">
            {t('domains.recordFields.type')}
          </Text>
          <Code data-testid="record-type">{record.type}</Code>
        </Group>
        {record.value === null ? (
          <Alert color="blue" data-testid="record-spf-unknown">
            {t('domains.spfUnknown')}
            {record.note && record.note !== SPF_RELAY_UNKNOWN && <Text size="sm">{translateServerMessage(t, record.note)}</Text>}
          </Alert>
        ) : (
          <>
            <CopyField label={t('domains.recordFields.value')} value={record.value} copyLabel={t('domains.copyValue')} testId={`record-copy-value-${kind}`} />
            {record.zone_value && record.strings.length > 1 && (
              <CopyField
                label={t('domains.recordFields.zone')}
                value={record.zone_value}
                copyLabel={t('domains.copyZone')}
                testId={`record-copy-zone-${kind}`}
                hint={t('domains.zoneHint', { count: record.strings.length })}
              />
            )}
            {record.note && record.note !== SPF_RELAY_UNKNOWN && (
              <Text size="sm" c="dimmed" data-testid="record-note">
                {translateServerMessage(t, record.note)}
              </Text>
            )}
          </>
        )}
        <RecordCheck record={record} />
      </Stack>
    </Paper>
  );
}

/** What the last check saw, in words: missing, wrong (with what was found and why), or why it could not check. */
function RecordCheck({ record }: { record: DomainRecord }) {
  const { t } = useTranslation();
  if (record.status === 'missing') {
    return (
      <Text size="sm" c="red" data-testid="record-check">
        {t('domains.checks.missing')}
      </Text>
    );
  }
  if (record.status === 'wrong') {
    return (
      <Stack gap={4} data-testid="record-check">
        <Text size="sm" c="red">
          {record.problem ? codeText(t, 'problems', record.problem) : t('domains.checks.wrong')}
        </Text>
        {record.found && record.found.length > 0 && (
          <>
            <Text size="xs" fw={600} c="dimmed">
              {t('domains.checks.found')}
            </Text>
            {record.found.map((found, index) => (
              <Code key={index} block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="record-found">
                {found}
              </Code>
            ))}
          </>
        )}
      </Stack>
    );
  }
  if (record.status === 'unavailable') {
    return (
      <Text size="sm" c="orange.8" data-testid="record-check">
        {t('domains.checks.unavailable', { reason: record.reason ? codeText(t, 'reasons', record.reason) : t('domains.reasons.unknown') })}
      </Text>
    );
  }
  if (record.status === 'unchecked') {
    return (
      <Text size="sm" c="dimmed" data-testid="record-check">
        {t('domains.checks.unchecked')}
      </Text>
    );
  }
  return null;
}
