import { Alert, Anchor, Badge, Text } from '@mantine/core';
import type { SenderDomainState } from '@shared/contracts/domain';
import type { Sender } from '@shared/contracts/sender';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';

// A sender's standing with the Domains screen (issue 37), shown where senders are listed and chosen: the senders
// screen, the broadcast form and the test-message dialog. Shared here so those features need not import each other.

/** A sender row as the API answers it, with its domain's state (absent from an API that predates sending domains). */
export type SenderWithDomain = Sender & { domain_state?: SenderDomainState };

/** The sender's domain state; `unknown` for SMS senders and when the API did not say. */
export function senderDomainState(sender: Pick<SenderWithDomain, 'type' | 'domain_state'> | null | undefined): SenderDomainState {
  if (sender?.type !== 'email') return 'unknown';
  return sender.domain_state ?? 'unknown';
}

const BADGE_COLORS = { verified: 'green', unverified: 'yellow', broken: 'red' } as const;

/** A small badge for an email sender's domain: verified, unverified or broken (nothing for SMS or unknown). */
export function SenderDomainBadge({ sender }: { sender: SenderWithDomain }) {
  const { t } = useTranslation();
  const state = senderDomainState(sender);
  if (state === 'unknown') return null;
  const hint =
    state === 'verified' ? t('domains.senderHints.verified') : t(state === 'broken' ? 'domains.messages.brokenSender' : 'domains.messages.unverifiedSender');
  return (
    <Badge variant="light" color={BADGE_COLORS[state]} title={hint} data-testid="sender-domain-state" data-state={state}>
      {t(`domains.senderStates.${state}`)}
    </Badge>
  );
}

/**
 * The warning a form shows before sending from a sender whose domain is unverified or broken: a warning, not a
 * refusal (the customer's relay may sign), with a link to the Domains screen.
 */
export function SenderDomainWarning({ sender }: { sender: SenderWithDomain | null | undefined }) {
  const { t } = useTranslation();
  const href = pathOf(useRouteTable(), 'domain_list');
  const state = senderDomainState(sender);
  if (state !== 'unverified' && state !== 'broken') return null;
  return (
    <Alert
      color={state === 'broken' ? 'red' : 'yellow'}
      icon={<IconAlertTriangle size={18} />}
      title={t('domains.warningTitle')}
      data-testid="sender-domain-warning"
      data-state={state}
    >
      <Text size="sm">{t(state === 'broken' ? 'domains.messages.brokenSender' : 'domains.messages.unverifiedSender')}</Text>
      {href && (
        <Link href={href} asChild>
          <Anchor href={href} size="sm" data-testid="sender-domain-link">
            {t('domains.openDomains')}
          </Anchor>
        </Link>
      )}
    </Alert>
  );
}
