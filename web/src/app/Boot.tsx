import type { GuestInit } from '@shared/contracts/auth';
import type { ItemBody } from '@shared/errors';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { GUEST_INIT_KEY } from '../lib/swr-keys';
import { FullPageLoader, FullPageMessage } from '../components/common/FullPage';
import { isApiError } from '../lib/api-error';
import { translateApiError } from '../lib/server-messages';
import { guestInitAtom, sessionReadyAtom } from '../lib/session-state';
import { AppRoutes } from './AppRoutes';
import { runtimeSettingsOf } from '../lib/runtime-settings';
import { useUpdatesCheck } from './updates-check';
import { useUserLanguage } from './user-language';
import { useServices } from '../lib/services-context';
import { useRemoveBootShell } from './boot-shell';

/** Startup: loads /init/guest (organisation, auth methods), restores the session, then shows the routes. */
export function Boot() {
  const { t } = useTranslation();
  const { client, session, store, applyEndpoints } = useServices();
  const ready = useAtomValue(sessionReadyAtom);
  const restoring = useRef(false);
  const { data, error, mutate } = useSWR(GUEST_INIT_KEY, () => client.get<ItemBody<GuestInit>>('/init/guest', undefined, { guest: true }), {
    revalidateIfStale: false,
    revalidateOnReconnect: false,
  });

  useEffect(() => {
    if (!data || restoring.current) return;
    restoring.current = true;
    // The runtime settings say where the API and the error log are: every later call goes there.
    const settings = runtimeSettingsOf(data.data);
    applyEndpoints({ apiBaseUrl: settings.apiBaseUrl, logUrl: settings.logUrl });
    store.set(guestInitAtom, data.data);
    session.setAuthMethods(data.data.auth_methods, data.data.auth?.refresh_header);
    void session.restore();
  }, [data, session, store, applyEndpoints]);
  useUpdatesCheck();
  useUserLanguage();
  // A startup that ends in a message instead of the routes shows it in place of the html's sign-in shell.
  useRemoveBootShell(Boolean(error));

  if (isApiError(error, 'org_not_found')) {
    return <FullPageMessage testId="org-not-found" title={t('orgNotFound.title')} text={t('orgNotFound.text')} />;
  }
  if (error) {
    return (
      <FullPageMessage title={t('errors.startup')} text={translateApiError(t, error)} action={{ label: t('common.retry'), onClick: () => void mutate() }} />
    );
  }
  if (!data || !ready) return <FullPageLoader />;
  return <AppRoutes />;
}
