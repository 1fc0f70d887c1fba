import { Badge, Tooltip } from '@mantine/core';
import type { DeliveryStatus } from '@shared/contracts/message';
import type { HitClass, HitReason } from '@shared/contracts/tracking';
import { useTranslation } from 'react-i18next';

const CLASS_COLOR: Record<HitClass, string> = { human: 'green', prefetch: 'gray', scanner: 'orange', unknown: 'yellow' };
// The reports that make a message's outcome (bounced, complained, undelivered) in the outcome badge's colours
// (components/common/OutcomeBadge.tsx), so the two badges side by side on a message never disagree.
const DELIVERY_COLOR: Record<DeliveryStatus, string> = {
  queued: 'cyan',
  sending: 'cyan',
  sent: 'blue',
  delivered: 'green',
  undelivered: 'pink',
  failed: 'red',
  soft_bounced: 'yellow',
  bounced: 'orange',
  complained: 'grape',
};

/** How a hit was judged, with why on hover. */
export function HitClassBadge({ hitClass, reason }: { hitClass: HitClass; reason: HitReason }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t(`engagement.reasons.${reason}`)}>
      <Badge color={CLASS_COLOR[hitClass]} variant="light" data-testid="hit-class" data-class={hitClass}>
        {t(`engagement.classes.${hitClass}`)}
      </Badge>
    </Tooltip>
  );
}

/** A message's delivery report (an SMS's from the provider, an email's bounce or spam report), with its code. */
export function DeliveryBadge({ status, errorCode }: { status: DeliveryStatus | null; errorCode: string | null }) {
  const { t } = useTranslation();
  if (!status) return <span data-testid="delivery-status">{t('engagement.noReport')}</span>;
  return (
    <span data-testid="delivery-status" data-status={status}>
      <Badge color={DELIVERY_COLOR[status]} variant="light">
        {t(`engagement.deliveryStatuses.${status}`)}
      </Badge>
      {errorCode && <> {t('engagement.deliveryError', { code: errorCode })}</>}
    </span>
  );
}

/** An unsubscribe reason as the recipient chose it. */
export function reasonText(t: (key: string) => string, reason: string | null): string {
  return reason ? t(`unsubscribe.reasons.${reason}`) : '—';
}
