import { Badge } from '@mantine/core';
import type { SuppressionReason } from '@shared/contracts/suppression';
import { useTranslation } from 'react-i18next';

/** Why the platform suppressed an address (a bounce, repeated soft bounces, a spam complaint): the contact and the blacklist show it. */
export function SuppressionBadge({ reason }: { reason: SuppressionReason }) {
  const { t } = useTranslation();
  return (
    <Badge color={reason === 'soft_bounces' ? 'orange' : 'red'} variant="light" data-testid="suppression-reason" data-reason={reason}>
      {t(`engagement.suppressionReasons.${reason}`)}
    </Badge>
  );
}
