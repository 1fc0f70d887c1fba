import { Alert, Anchor, Button, Card, Group, Stack, Stepper, Text, Title } from '@mantine/core';
import type { ItemBody } from '@shared/errors';
import type { SignupView } from '@shared/contracts/signup';
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { useServices } from '../../lib/services-context';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { guestInitAtom } from '../../lib/session-state';
import { OrganizationStep } from './OrganizationStep';
import { PaymentStep } from './PaymentStep';
import { redirectTo } from './redirect';
import { EMPTY_SIGNUP, firstStepWithErrors, organizationStepProblems, signupBody, userStepProblems, type SignupValues, type StepProblems } from './signup-form';
import { UserStep } from './UserStep';

export const SIGNUP_PATH = '/signup';

/** /signup on the platform host: user profile, organisation profile, payment; Pay creates the sign-up and goes to checkout. */
export function SignupPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const init = useAtomValue(guestInitAtom);
  const query = new URLSearchParams(useSearch());
  const invite = query.get('invite');
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<SignupValues>(EMPTY_SIGNUP);
  const [checked, setChecked] = useState<boolean[]>([false, false]);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const requestKey = client.keyOf('POST', SIGNUP_PATH);
  const { errors: serverErrors, clear } = useFormErrors(requestKey);

  const settings = init?.settings;
  if (settings && !settings['signup.enabled']) return <SignupUnavailable text={t('server.registrationClosed')} />;
  // An invitation (an approved pre-registration) may sign up while registration is paused.
  if (settings && !settings['signup.active'] && !invite) return <SignupUnavailable text={t('server.registrationPaused')} preRegistration />;

  const problems: StepProblems[] = [userStepProblems(values, init?.password_config), organizationStepProblems(values)];
  /** The message under a field: the client check (after Next was tried) or the server's 422 messages. */
  const messageOf = (path: string, stepIndex: number, live = false) => {
    const local = problems[stepIndex][path];
    if (local && (checked[stepIndex] || live)) return translateServerMessage(t, local);
    return fieldErrorText(t, serverErrors[path]);
  };
  const change = (patch: Partial<SignupValues>, paths: string[]) => {
    setValues((current) => ({ ...current, ...patch }));
    for (const path of paths) clear(path);
  };
  const next = (event: FormEvent) => {
    event.preventDefault();
    setChecked((current) => current.map((value, i) => (i === step ? true : value)));
    if (Object.keys(problems[step]).length === 0) setStep(step + 1);
  };
  const pay = async () => {
    setPaying(true);
    setError(null);
    try {
      const body = await client.post<ItemBody<SignupView>>(SIGNUP_PATH, signupBody(values, invite), { guest: true });
      redirectTo(body.data.checkout_url);
    } catch (failure) {
      setPaying(false);
      setError(translateApiError(t, failure));
      if (isApiError(failure) && failure.status === 422) {
        const target = firstStepWithErrors(failure.fields);
        if (target !== null) setStep(target);
      }
    }
  };

  return (
    <Card withBorder shadow="sm" padding="lg" maw={640} mx="auto" mt="xl" data-testid="signup">
      <Title order={2} mb="xs">
        {t('identity.signup.title')}
      </Title>
      <Text c="dimmed" mb="md">
        {t('identity.signup.intro')}
      </Text>
      {query.get('cancelled') && (
        <Alert color="yellow" mb="md" data-testid="signup-cancelled">
          {t('identity.signup.cancelled')}
        </Alert>
      )}
      {error && (
        <Alert color="red" mb="md" data-testid="signup-error">
          {error}
        </Alert>
      )}
      <Stepper active={step} onStepClick={(index) => index < step && setStep(index)} size="sm" data-testid="signup-stepper" data-step={step}>
        <Stepper.Step label={t('identity.signup.stepUser')}>
          <form onSubmit={next} noValidate data-testid="signup-step-user">
            <UserStep values={values} change={change} messageOf={(path, live) => messageOf(path, 0, live)} />
            <Group justify="flex-end" mt="md">
              <Button type="submit" data-testid="signup-next">
                {t('identity.signup.next')}
              </Button>
            </Group>
          </form>
        </Stepper.Step>
        <Stepper.Step label={t('identity.signup.stepOrganization')}>
          <form onSubmit={next} noValidate data-testid="signup-step-organization">
            <OrganizationStep values={values} change={change} messageOf={(path, live) => messageOf(path, 1, live)} />
            <Group justify="space-between" mt="md">
              <Button variant="default" onClick={() => setStep(0)} data-testid="signup-back">
                {t('identity.signup.back')}
              </Button>
              <Button type="submit" data-testid="signup-next">
                {t('identity.signup.next')}
              </Button>
            </Group>
          </form>
        </Stepper.Step>
        <Stepper.Step label={t('identity.signup.stepPayment')}>
          <PaymentStep values={values} paying={paying} onBack={() => setStep(1)} onPay={() => void pay()} />
        </Stepper.Step>
      </Stepper>
    </Card>
  );
}

/** Sign-up closed or paused: the reason, and the pre-registration form when paused. */
function SignupUnavailable({ text, preRegistration }: { text: string; preRegistration?: boolean }) {
  const { t } = useTranslation();
  return (
    <Card withBorder maw={520} mx="auto" mt="xl" data-testid="signup-unavailable">
      <Stack>
        <Text>{text}</Text>
        {preRegistration ? (
          <Link href="/pre-registration" asChild>
            <Button component="a" href="/pre-registration" data-testid="signup-pre-registration">
              {t('identity.platform.preRegister')}
            </Button>
          </Link>
        ) : (
          <Link href="/" asChild>
            <Anchor href="/">{t('common.backHome')}</Anchor>
          </Link>
        )}
      </Stack>
    </Card>
  );
}
