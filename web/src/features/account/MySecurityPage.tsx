import { Stack } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { currentUserAtom, guestInitAtom } from '../../lib/session-state';
import { useIsDemo } from './account-state';
import { useSocialProviders } from './api';
import { DeleteAccountSection } from './DeleteAccountSection';
import { PasswordSection } from './PasswordSection';
import { SecurityNotice, useSocialLinkConfirmation } from './SecurityNotice';
import { SocialAccountsSection } from './SocialAccountsSection';

/**
 * /me/security: confirms a link the provider sent back, notices from a social link or unlink, social accounts,
 * username-password access, account deletion.
 */
export function MySecurityPage() {
  const user = useAtomValue(currentUserAtom);
  const configured = useAtomValue(guestInitAtom)?.social_providers ?? [];
  const demo = useIsDemo();
  const social = useSocialProviders();
  const providers = social.data?.data ?? [];
  useSocialLinkConfirmation(() => void social.mutate());
  const providerName = (id: string) => providers.find((p) => p.id === id)?.name ?? configured.find((p) => p.id === id)?.name ?? id;
  if (!user) return <AccountLayout>{null}</AccountLayout>;
  return (
    <AccountLayout>
      <Stack data-testid="my-security">
        <SecurityNotice providerName={providerName} />
        <SocialAccountsSection providers={providers} error={social.error} loading={social.isLoading} demo={demo} onChanged={() => void social.mutate()} />
        <PasswordSection key={String(user.has_password)} user={user} demo={demo} />
        <DeleteAccountSection user={user} demo={demo} />
      </Stack>
    </AccountLayout>
  );
}
