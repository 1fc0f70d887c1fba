import { Alert, Anchor, Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useServices } from '../../lib/services-context';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';

export const PASSWORD_REMIND_PATH = '/internal-user/password-remind';

/** /forgot-password: asks for a reset link; the answer is the same generic message whether or not the account exists. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const requestKey = client.keyOf('POST', PASSWORD_REMIND_PATH);
  const { errors: fieldErrors, clear } = useFormErrors(requestKey);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      const body = await client.post<{ data?: { message?: string } }>(PASSWORD_REMIND_PATH, { email: email.trim() }, { guest: true });
      setAnswer(translateServerMessage(t, body?.data?.message || t('server.resetRequested')));
    } catch (failure) {
      setError(translateApiError(t, failure));
    } finally {
      setSending(false);
    }
  };

  return (
    <Card withBorder shadow="sm" padding="lg" maw={440} mx="auto" mt="xl" data-testid="forgot-password">
      <Title order={2} mb="xs">
        {t('identity.forgot.title')}
      </Title>
      {answer ? (
        <Stack>
          <Alert color="green" data-testid="forgot-password-sent">
            {answer}
          </Alert>
          <Link href="/" asChild>
            <Anchor href="/">{t('identity.backToSignIn')}</Anchor>
          </Link>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text c="dimmed">{t('identity.forgot.intro')}</Text>
            {error && (
              <Alert color="red" data-testid="forgot-password-error">
                {error}
              </Alert>
            )}
            <TextInput
              label={t('identity.forgot.email')}
              type="email"
              autoComplete="email"
              data-testid="forgot-password-email"
              value={email}
              error={fieldErrorText(t, fieldErrors.email)}
              onChange={(e) => {
                setEmail(e.currentTarget.value);
                clear('email');
              }}
            />
            <Button type="submit" loading={sending} data-testid="forgot-password-submit">
              {t('identity.forgot.submit')}
            </Button>
            <Link href="/" asChild>
              <Anchor href="/" size="sm">
                {t('identity.backToSignIn')}
              </Anchor>
            </Link>
          </Stack>
        </form>
      )}
    </Card>
  );
}
