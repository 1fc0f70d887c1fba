import { Group, List, PasswordInput, Stack, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { checkPassword, PASSWORD_POLICY } from '@shared/password-policy';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { guestInitAtom } from '../../lib/session-state';

export interface PasswordFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: ReactNode;
  /** Shows the live list of password rules (met / not yet met) below the input. */
  showChecklist?: boolean;
  /** data-testid of the input; the checklist gets `<testId>-checklist` and each rule `<testId>-rule-<rule>`. */
  testId?: string;
  autoComplete?: string;
  /** Marks the field required (the red asterisk of the other required inputs). */
  withAsterisk?: boolean;
}

/** A password input with an optional live checklist of the policy rules (checkPassword is the one rule source). */
export function PasswordField({
  label,
  value,
  onChange,
  error,
  showChecklist,
  testId = 'password-field',
  autoComplete = 'new-password',
  withAsterisk,
}: PasswordFieldProps) {
  const { t } = useTranslation();
  const policy = useAtomValue(guestInitAtom)?.password_config ?? PASSWORD_POLICY;
  const checks = showChecklist ? checkPassword(value, policy) : [];
  // With the checklist in view, a refused password says so in one line and the unmet rules turn red below,
  // rather than every rule's message run together above the same rules.
  const unmet = Boolean(error) && value !== '' && checks.some((check) => !check.ok);
  return (
    <Stack gap={6}>
      <PasswordInput
        label={label}
        value={value}
        error={unmet ? t('identity.passwordRulesUnmet') : error}
        withAsterisk={withAsterisk}
        autoComplete={autoComplete}
        data-testid={testId}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      {showChecklist && (
        <List spacing={2} size="sm" listStyleType="none" data-testid={`${testId}-checklist`}>
          {checks.map((check) => (
            <List.Item key={check.rule} data-testid={`${testId}-rule-${check.rule}`} data-ok={check.ok ? 'true' : 'false'}>
              <Group gap={6} wrap="nowrap">
                {check.ok ? (
                  <IconCheck size={14} color="var(--mantine-color-green-7)" />
                ) : (
                  <IconX size={14} color={unmet ? 'var(--mantine-color-red-7)' : 'var(--mantine-color-gray-6)'} />
                )}
                <Text size="sm" c={check.ok ? 'green.8' : unmet ? 'red.7' : 'dimmed'}>
                  {t(`identity.passwordRules.${check.rule}`, { min: policy.min_length, characters: policy.extra_characters })}
                </Text>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
