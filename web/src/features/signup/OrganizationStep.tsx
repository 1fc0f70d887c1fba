import { Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StepProps } from './UserStep';

/** Sign-up step 2: the organisation name and its domain (the label before the platform host, checked live). */
export function OrganizationStep({ values, change, messageOf }: StepProps) {
  const { t } = useTranslation();
  const host = window.location.host;
  return (
    <Stack mt="md">
      <TextInput
        label={t('identity.signup.orgName')}
        withAsterisk
        data-testid="signup-org-name"
        value={values.orgName}
        error={messageOf('organization.name')}
        onChange={(e) => change({ orgName: e.currentTarget.value }, ['organization.name'])}
      />
      <TextInput
        label={t('identity.signup.domain')}
        description={t('identity.signup.domainHint', { host })}
        withAsterisk
        autoCapitalize="off"
        spellCheck={false}
        data-testid="signup-domain"
        value={values.domain}
        error={messageOf('organization.domain', values.domain.length > 0)}
        rightSectionWidth={Math.min(260, host.length * 8 + 24)}
        rightSection={
          <Text size="sm" c="dimmed" data-testid="signup-domain-suffix">
            .{host}
          </Text>
        }
        onChange={(e) => change({ domain: e.currentTarget.value }, ['organization.domain'])}
      />
    </Stack>
  );
}
