import { Alert, Anchor, Button, Card, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useServices } from '../../lib/services-context';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';

const PATH = '/pre-registration';
const FIELDS = ['name', 'email', 'organization', 'domain', 'comments'] as const;
type Field = (typeof FIELDS)[number];

/** /pre-registration: while registration is paused, a visitor asks to join; the request is reviewed and answered by email. */
export function PreRegistrationPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', email: '', organization: '', domain: '', comments: '' });
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const requestKey = client.keyOf('POST', PATH);
  const { errors: fieldErrors, clear } = useFormErrors(requestKey);
  const messageOf = (field: Field) => fieldErrorText(t, fieldErrors[field]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setError(null);
    const domain = values.domain.trim().toLowerCase();
    try {
      await client.post(
        PATH,
        { name: values.name, email: values.email, organization: values.organization, comments: values.comments, ...(domain ? { domain } : {}) },
        { guest: true },
      );
      setSent(true);
    } catch (failure) {
      setError(translateApiError(t, failure));
    } finally {
      setSending(false);
    }
  };

  if (sent) {
    return (
      <Card withBorder maw={520} mx="auto" mt="xl" data-testid="pre-registration">
        <Alert color="green" data-testid="pre-registration-sent">
          {t('identity.preRegistration.sent')}
        </Alert>
        <Link href="/" asChild>
          <Anchor href="/" mt="md" display="block">
            {t('common.backHome')}
          </Anchor>
        </Link>
      </Card>
    );
  }

  const input = (field: Field, required = true) => ({
    label: t(`identity.preRegistration.${field}`),
    withAsterisk: required,
    value: values[field],
    error: messageOf(field),
    'data-testid': `pre-registration-${field}`,
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
      clear(field);
    },
  });

  return (
    <Card withBorder shadow="sm" padding="lg" maw={560} mx="auto" mt="xl" data-testid="pre-registration">
      <Title order={2} mb="xs">
        {t('identity.preRegistration.title')}
      </Title>
      <Text c="dimmed" mb="md">
        {t('identity.preRegistration.intro')}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          {error && (
            <Alert color="red" data-testid="pre-registration-error">
              {error}
            </Alert>
          )}
          <TextInput {...input('name')} autoComplete="name" />
          <TextInput {...input('email')} type="email" autoComplete="email" />
          <TextInput {...input('organization')} autoComplete="organization" />
          <TextInput {...input('domain', false)} description={t('identity.signup.domainHint', { host: window.location.host })} />
          <Textarea {...input('comments')} autosize minRows={3} />
          <Button type="submit" loading={sending} data-testid="pre-registration-submit">
            {t('identity.preRegistration.submit')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
