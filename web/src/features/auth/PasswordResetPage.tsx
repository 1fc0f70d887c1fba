import { Alert, Anchor, Button, Card, Stack, Title } from '@mantine/core';
import { MESSAGES } from '@shared/messages';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useServices } from '../../lib/services-context';
import { PasswordField } from '../../components/form/PasswordField';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { useOneTimeQuery } from '../../lib/one-time-query';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';

export const PASSWORD_RESET_PATH = '/internal-user/password-reset';

/** /password-reset?code=: sets a new password with the emailed code; an invalid or expired code says so. */
export function PasswordResetPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const code = useOneTimeQuery().get('code')?.trim() ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [state, setState] = useState<'form' | 'done' | 'invalid'>(code ? 'form' : 'invalid');
  const [error, setError] = useState<string | null>(null);
  const requestKey = client.keyOf('POST', PASSWORD_RESET_PATH);
  const { errors: fieldErrors, clear } = useFormErrors(requestKey);
  const mismatch = repeat.length > 0 || tried ? repeat !== password : false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (repeat !== password) return;
    setSaving(true);
    setError(null);
    try {
      await client.post(PASSWORD_RESET_PATH, { code, password }, { guest: true });
      setState('done');
    } catch (failure) {
      // A bad code comes back as link_invalid (400) or as a 422 on the code field: either way the link is spent.
      if (isApiError(failure, 'link_invalid') || (isApiError(failure) && failure.status === 422 && failure.fields.code)) setState('invalid');
      else setError(translateApiError(t, failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card withBorder shadow="sm" padding="lg" maw={440} mx="auto" mt="xl" data-testid="password-reset">
      <Title order={2} mb="md">
        {t('auth.resetTitle')}
      </Title>
      {state === 'invalid' ? (
        <Stack>
          <Alert color="red" data-testid="password-reset-invalid">
            {translateServerMessage(t, MESSAGES.resetLinkInvalid)}
          </Alert>
          <Link href="/forgot-password" asChild>
            <Anchor href="/forgot-password" data-testid="password-reset-request-new">
              {t('identity.reset.requestNew')}
            </Anchor>
          </Link>
        </Stack>
      ) : state === 'done' ? (
        <Stack>
          <Alert color="green" data-testid="password-reset-done">
            {t('identity.reset.done')}
          </Alert>
          <Link href="/" asChild>
            <Anchor href="/" data-testid="password-reset-signin">
              {t('identity.backToSignIn')}
            </Anchor>
          </Link>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            {error && (
              <Alert color="red" data-testid="password-reset-error">
                {error}
              </Alert>
            )}
            <PasswordField
              withAsterisk
              label={t('identity.password.new')}
              testId="password-reset-password"
              showChecklist
              value={password}
              error={fieldErrorText(t, fieldErrors.password)}
              onChange={(value) => {
                setPassword(value);
                clear('password');
              }}
            />
            <PasswordField
              withAsterisk
              label={t('identity.password.repeat')}
              testId="password-reset-repeat"
              value={repeat}
              error={mismatch ? translateServerMessage(t, MESSAGES.passwordsMismatch) : undefined}
              onChange={setRepeat}
            />
            <Button type="submit" loading={saving} data-testid="password-reset-submit">
              {t('identity.reset.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </Card>
  );
}
