import { TextInput } from '@mantine/core';
import type { CurrentUser } from '@shared/contracts/auth';
import { MESSAGES } from '@shared/messages';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { notifySuccess } from '../../components/common/notify';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { currentUserAtom, guestInitAtom } from '../../lib/session-state';
import { useIsDemo, looksLikeEmail } from './account-state';
import { AccountFormCard } from './AccountFormCard';
import { useAccountCalls, type ProfileInput } from './api';

/** /me/profile: the signed-in user's full name and login (username in simple-sign mode, else email). */
export function MyProfilePage() {
  const user = useAtomValue(currentUserAtom);
  return (
    <AccountLayout>
      <div data-testid="my-profile">{user && <ProfileForm key={user.id} user={user} />}</div>
    </AccountLayout>
  );
}

function ProfileForm({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const { store } = useServices();
  const calls = useAccountCalls();
  const demo = useIsDemo();
  const simple = useAtomValue(guestInitAtom)?.settings['signin.mode'] === 'simple';
  const [name, setName] = useState(user.name);
  const [login, setLogin] = useState(simple ? user.username : (user.email ?? user.username));
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, clear, set } = useFormErrors(calls.keys.profile(user.id));
  const loginErrors = [...(errors.email ?? []), ...(errors.username ?? []), ...(errors.login ?? [])];

  const submit = async () => {
    setFormError(null);
    const problems: Record<string, string[]> = {};
    if (!name.trim()) problems.name = [MESSAGES.required];
    if (!login.trim()) problems.login = [MESSAGES.required];
    // A login with an @ is an email address (it sets the email), so it must be a valid one in either mode.
    else if ((!simple || login.includes('@')) && !looksLikeEmail(login)) problems.login = [MESSAGES.invalidEmail];
    if (Object.keys(problems).length) {
      set(problems);
      setFormError(t('server.invalidForm'));
      return;
    }
    const input: ProfileInput = looksLikeEmail(login) ? { name: name.trim(), email: login.trim() } : { name: name.trim(), username: login.trim() };
    setSubmitting(true);
    try {
      const saved = await calls.updateProfile(user.id, input);
      // The header, account menu and other pages read the session's user: refresh it with the saved one.
      store.set(currentUserAtom, { ...user, ...saved });
      notifySuccess(t('me.profile.saved'));
    } catch (error) {
      setFormError(isApiError(error, 'validation_failed') ? t('server.invalidForm') : translateApiError(t, error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountFormCard title={t('account.profile')} testId="profile-form" onSubmit={submit} submitting={submitting} disabled={demo} error={formError}>
      <TextInput
        label={t('me.profile.name')}
        withAsterisk
        maxLength={200}
        value={name}
        disabled={demo}
        error={fieldErrorText(t, errors.name)}
        data-testid="profile-name"
        onChange={(event) => {
          setName(event.currentTarget.value);
          clear('name');
        }}
      />
      <TextInput
        label={t(simple ? 'me.profile.username' : 'me.profile.email')}
        description={simple ? t('me.profile.loginHint') : undefined}
        withAsterisk
        maxLength={254}
        value={login}
        disabled={demo}
        error={fieldErrorText(t, loginErrors)}
        data-testid="profile-login"
        autoComplete="username"
        onChange={(event) => {
          setLogin(event.currentTarget.value);
          for (const field of ['email', 'username', 'login']) clear(field);
        }}
      />
    </AccountFormCard>
  );
}
