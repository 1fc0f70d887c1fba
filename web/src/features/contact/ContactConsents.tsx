import { Box, Code, Paper, Stack, Text, Title } from '@mantine/core';
import type { Consent } from '@shared/contracts/membership';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime, formatDateTime } from '../../components/common/DateTime';
import { consentState } from './membership-standing';

/**
 * The "Consent" part of the contact's Subscriptions card: each form sign-up with when it was made and confirmed, the
 * browser that confirmed it and the keyed hash of its IP (issue 39, "Consent recorded").
 */
export function ContactConsents({ consents, subscriptions }: { consents: Consent[]; subscriptions: { id: number; name: string }[] }) {
  const { t, i18n } = useTranslation();
  const names = new Map(subscriptions.map((subscription) => [subscription.id, subscription.name]));
  const now = Date.now();
  return (
    <Box data-testid="contact-consents">
      <Title order={5} mb={4}>
        {t('memberships.consent.title')}
      </Title>
      {consents.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="contact-no-consents">
          {t('memberships.consent.none')}
        </Text>
      ) : (
        <Stack gap="xs">
          {consents.map((consent) => {
            const state = consentState(consent, now);
            const joined = consent.subscription_ids.map((id) => names.get(id) ?? `#${id}`).join(', ');
            return (
              <Paper key={consent.id} withBorder p="xs" data-testid="contact-consent" data-state={state}>
                <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }} data-testid="consent-form">
                  {consent.form_name}
                </Text>
                {joined && (
                  <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                    {joined}
                  </Text>
                )}
                <Stack gap={2} mt={4}>
                  <Fact label={t('memberships.consent.signedUp')} testId="consent-signed-up">
                    <DateTime value={consent.signed_up_at} />
                  </Fact>
                  <Fact label={t('memberships.consent.confirmed')} testId="consent-confirmed">
                    {state === 'confirmed' ? (
                      <DateTime value={consent.confirmed_at} />
                    ) : (
                      t(state === 'expired' ? 'memberships.consent.expired' : 'memberships.consent.notConfirmed', {
                        date: formatDateTime(consent.expires_at, i18n.language),
                      })
                    )}
                  </Fact>
                  {consent.confirm_user_agent && (
                    <Fact label={t('memberships.consent.browser')} testId="consent-browser">
                      {consent.confirm_user_agent}
                    </Fact>
                  )}
                  {consent.confirm_ip_hash && (
                    <Fact label={t('memberships.consent.ipHash')} testId="consent-ip-hash" hint={t('memberships.consent.ipHashHint')}>
                      <Code style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{consent.confirm_ip_hash}</Code>
                    </Fact>
                  )}
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      )}
    </Box>
  );
}

/** One labelled line of a sign-up; long values (a user agent, a hash) break anywhere rather than widen the card. */
function Fact({ label, testId, hint, children }: { label: string; testId: string; hint?: string; children: ReactNode }) {
  return (
    <Box data-testid={testId}>
      <Text size="xs" c="dimmed" component="span">
        {label}:{' '}
      </Text>
      <Text size="xs" component="span" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" mt={2}>
          {hint}
        </Text>
      )}
    </Box>
  );
}
