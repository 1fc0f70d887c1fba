import { Alert, Button, Group, Paper, Stack, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface AccountFormCardProps {
  title: string;
  testId: string;
  onSubmit: () => void | Promise<void>;
  submitting: boolean;
  /** Demo mode: the submit button is disabled (inputs are disabled by the caller). */
  disabled?: boolean;
  /** The form-level message (invalid form, demo lock, ...). */
  error?: string | null;
  submitLabel?: string;
  /** Extra buttons next to submit (cancel...). */
  actions?: ReactNode;
  children: ReactNode;
}

/** One account form in a card: title, form-level message, fields, and a submit button (disabled in demo mode). */
export function AccountFormCard(props: AccountFormCardProps) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (props.disabled || props.submitting) return;
    void props.onSubmit();
  };
  return (
    <Paper withBorder p="lg" component="form" onSubmit={submit} noValidate data-testid={props.testId}>
      <Stack>
        <Title order={3}>{props.title}</Title>
        {props.error && (
          <Alert color="red" data-testid={`${props.testId}-error`}>
            {props.error}
          </Alert>
        )}
        {/* A disabled fieldset disables every input inside it, including ones without a disabled prop. */}
        <fieldset disabled={props.disabled} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }} data-testid={`${props.testId}-fields`}>
          <Stack>{props.children}</Stack>
        </fieldset>
        <Group gap="xs">
          <Button type="submit" loading={props.submitting} disabled={props.disabled} data-testid={`${props.testId}-submit`}>
            {props.submitLabel ?? t('common.save')}
          </Button>
          {props.actions}
        </Group>
      </Stack>
    </Paper>
  );
}
