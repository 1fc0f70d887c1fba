import { Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../components/form/PasswordField';
import type { SignupValues } from './signup-form';

export interface StepProps {
  values: SignupValues;
  change(patch: Partial<SignupValues>, paths: string[]): void;
  /** The message under a field by its server path; live shows the client check before Next was tried. */
  messageOf(path: string, live?: boolean): string | undefined;
}

/** Sign-up step 1: the user profile (name, email, password with its checklist, repeat password). */
export function UserStep({ values, change, messageOf }: StepProps) {
  const { t } = useTranslation();
  return (
    <Stack mt="md">
      <TextInput
        label={t('identity.signup.name')}
        autoComplete="name"
        withAsterisk
        data-testid="signup-name"
        value={values.name}
        error={messageOf('user.name')}
        onChange={(e) => change({ name: e.currentTarget.value }, ['user.name'])}
      />
      <TextInput
        label={t('identity.signup.email')}
        type="email"
        autoComplete="email"
        withAsterisk
        data-testid="signup-email"
        value={values.email}
        error={messageOf('user.email')}
        onChange={(e) => change({ email: e.currentTarget.value }, ['user.email'])}
      />
      <PasswordField
        withAsterisk
        label={t('identity.password.new')}
        testId="signup-password"
        showChecklist
        value={values.password}
        error={messageOf('user.password')}
        onChange={(password) => change({ password }, ['user.password'])}
      />
      <PasswordField
        withAsterisk
        label={t('identity.password.repeat')}
        testId="signup-repeat"
        value={values.repeat}
        error={messageOf('repeat', values.repeat.length > 0)}
        onChange={(repeat) => change({ repeat }, [])}
      />
    </Stack>
  );
}
