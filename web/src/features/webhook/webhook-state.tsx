import { Badge } from '@mantine/core';
import type { DeliveryState, Endpoint } from '@shared/contracts/webhook';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../components/common/DateTime';

const DELIVERY_COLORS: Record<DeliveryState, string> = { pending: 'yellow', sending: 'blue', delivered: 'green', paused: 'gray' };

/** An endpoint's badge: active, failing since when, disabled and why (gone, failing), or off. */
export function EndpointStateBadge({ endpoint }: { endpoint: Endpoint }) {
  const { t, i18n } = useTranslation();
  const { state } = endpoint;
  const label =
    state === 'failing'
      ? t('webhooks.states.failingSince', { time: formatDateTime(endpoint.failing_since, i18n.language) })
      : state === 'disabled'
        ? t(`webhooks.states.disabled_${endpoint.disabled_reason ?? 'failing'}`)
        : t(`webhooks.states.${state}`);
  const color = state === 'active' ? 'green' : state === 'failing' ? 'orange' : state === 'disabled' ? 'red' : 'gray';
  return (
    <Badge variant="light" color={color} data-testid="endpoint-state" data-state={state} style={{ textTransform: 'none' }}>
      {label}
    </Badge>
  );
}

export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={DELIVERY_COLORS[state]} data-testid="delivery-state" data-state={state}>
      {t(`webhooks.deliveryStates.${state}`)}
    </Badge>
  );
}
