import { Alert, Button, Text } from '@mantine/core';
import type { CurrentUser } from '@shared/contracts/auth';
import { MESSAGES } from '@shared/messages';
import { passwordProblems } from '@shared/password-policy';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { confirmDelete } from '../../components/common/confirm';
import { notifySuccess } from '../../components/common/notify';
import { PasswordField } from '../../components/form/PasswordField';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { currentUserAtom, guestInitAtom } from '../../lib/session-state';
import { AccountFormCard } from './AccountFormCard';
import { useAccountCalls } from './api';

/**
 * Username-password access: change the password (current one required) or, for a user without one, create it;
 * and remove it (after a confirmation; the server refuses when it is the last login method).
 */
export function PasswordSection({ user, demo }: { user: CurrentUser; demo: boolean }) {
  const { t } = useTranslation();
  const { store } = useServices();
  const calls = useAccountCalls();
  const policy = useAtomValue(guestInitAtom)?.password_config;
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const { errors, clear, set } = useFormErrors(calls.keys.password(user.id));
  const hasPassword = user.has_password;

  const edit = (field: string, setter: (value: string) => void) => (value: string) => {
    setter(value);
    clear(field);
  };

  const submit = async () => {
    setFormError(null);
    setRemoveError(null);
    const problems: Record<string, string[]> = {};
    if (hasPassword && !current) problems.current_password = [MESSAGES.required];
    const broken = password ? passwordProblems(password, policy) : [MESSAGES.required];
    if (broken.length) problems.password = broken;
    if (!repeat) problems.password_repeat = [MESSAGES.required];
    else if (repeat !== password) problems.password_repeat = [MESSAGES.passwordsMismatch];
    if (Object.keys(problems).length) {
      set(problems);
      setFormError(t('server.invalidForm'));
      return;
    }
    setSubmitting(true);
    try {
      const saved = await calls.changePassword(user.id, hasPassword ? { current_password: current, password } : { password });
      setCurrent('');
      setPassword('');
      setRepeat('');
      store.set(currentUserAtom, { ...user, ...saved, has_password: true });
      notifySuccess(t(hasPassword ? 'me.password.changed' : 'me.password.created'));
    } catch (error) {
      if (isApiError(error, 'current_password_wrong')) set({ current_password: [error.message] });
      setFormError(
        isApiError(error, 'validation_failed') || isApiError(error, 'current_password_wrong') ? t('server.invalidForm') : translateApiError(t, error),
      );
    } finally {
      setSubmitting(false);
    }
  };

  const remove = () =>
    confirmDelete({
      title: t('me.password.removeTitle'),
      message: t('me.password.removeMessage'),
      confirmLabel: t('me.password.remove'),
      cancelLabel: t('common.cancel'),
      onConfirm: async () => {
        setRemoveError(null);
        try {
          const saved = await calls.removePassword(user.id);
          store.set(currentUserAtom, { ...user, ...saved, has_password: false });
          notifySuccess(t('me.password.removed'));
        } catch (error) {
          setRemoveError(translateApiError(t, error));
        }
      },
    });

  return (
    <AccountFormCard
      title={t('me.password.title')}
      testId="password-form"
      onSubmit={submit}
      submitting={submitting}
      disabled={demo}
      error={formError}
      submitLabel={t(hasPassword ? 'me.password.change' : 'me.password.create')}
      actions={
        hasPassword && (
          <Button variant="subtle" color="red" disabled={demo} onClick={remove} data-testid="password-remove">
            {t('me.password.remove')}
          </Button>
        )
      }
    >
      <Text size="sm" c="dimmed" data-testid="password-state" data-has-password={hasPassword ? 'true' : 'false'}>
        {t(hasPassword ? 'me.password.hasPassword' : 'me.password.noPassword')}
      </Text>
      {removeError && (
        <Alert color="red" data-testid="password-remove-error">
          {removeError}
        </Alert>
      )}
      {hasPassword && (
        <PasswordField
          withAsterisk
          label={t('me.password.current')}
          value={current}
          onChange={edit('current_password', setCurrent)}
          error={fieldErrorText(t, errors.current_password)}
          testId="password-current"
          autoComplete="current-password"
        />
      )}
      <PasswordField
        withAsterisk
        label={t('me.password.new')}
        value={password}
        onChange={edit('password', setPassword)}
        error={fieldErrorText(t, errors.password)}
        showChecklist
        testId="password-new"
      />
      <PasswordField
        withAsterisk
        label={t('me.password.repeat')}
        value={repeat}
        onChange={edit('password_repeat', setRepeat)}
        error={fieldErrorText(t, errors.password_repeat)}
        testId="password-repeat"
      />
    </AccountFormCard>
  );
}
