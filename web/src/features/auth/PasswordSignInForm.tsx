import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useServices } from '../../lib/services-context';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { AUTH_PATHS } from '../../lib/session';

/** Login and password sign-in; on success the session goes to the root. */
export function PasswordSignInForm() {
  const { t } = useTranslation();
  const { client, session } = useServices();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const requestKey = client.keyOf('POST', AUTH_PATHS.tokenCreate);
  const { errors: fieldErrors, clear } = useFormErrors(requestKey);
  const fieldError = (name: string) => fieldErrorText(t, fieldErrors[name]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      await session.signIn(username, password);
    } catch (failure) {
      setError(translateApiError(t, failure));
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" data-testid="signin-error">
            {error}
          </Alert>
        )}
        <TextInput
          label={t('auth.username')}
          autoComplete="username"
          data-testid="signin-username"
          value={username}
          error={fieldError('username')}
          onChange={(e) => {
            setUsername(e.currentTarget.value);
            clear('username');
          }}
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          data-testid="signin-password"
          value={password}
          error={fieldError('password')}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            clear('password');
          }}
        />
        <Button type="submit" loading={submitting} data-testid="signin-submit">
          {t('auth.signIn')}
        </Button>
        <Link href="/forgot-password" asChild>
          <Anchor href="/forgot-password" size="sm" ta="center" data-testid="signin-forgot-password">
            {t('identity.forgot.link')}
          </Anchor>
        </Link>
      </Stack>
    </form>
  );
}
