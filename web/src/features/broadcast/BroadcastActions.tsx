import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Broadcast, BroadcastAction } from '@shared/contracts/broadcast';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { translateApiError } from '../../lib/server-messages';
import { broadcastAction } from './api';

const COLORS: Record<BroadcastAction, string> = { pause: 'yellow', resume: 'blue', cancel: 'red', 'retry-failed': 'blue' };

/** The buttons of the actions the broadcast's status allows; cancel asks first. A refused action says why (409). */
export function BroadcastActions({ broadcast, onChanged }: { broadcast: Broadcast; onChanged: (next: Broadcast) => void }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const [busy, setBusy] = useState<BroadcastAction | null>(null);

  const run = async (action: BroadcastAction) => {
    setBusy(action);
    try {
      onChanged(await broadcastAction(client, broadcast.id, action));
      notifySuccess(t(`broadcasts.actionDone.${action}`));
    } catch (error) {
      notifyError(translateApiError(t, error));
    } finally {
      setBusy(null);
    }
  };
  const ask = (action: BroadcastAction) =>
    action !== 'cancel'
      ? void run(action)
      : modals.openConfirmModal({
          title: t('broadcasts.cancelTitle'),
          children: <Text size="sm">{t('broadcasts.cancelConfirm', { name: broadcast.name })}</Text>,
          labels: { confirm: t('broadcasts.actions.cancel'), cancel: t('common.cancel') },
          confirmProps: { color: 'red', 'data-testid': 'confirm-ok' },
          cancelProps: { 'data-testid': 'confirm-cancel' },
          onConfirm: () => void run(action),
        });

  if (broadcast.actions.length === 0) return null;
  return (
    <Group gap="xs">
      {broadcast.actions.map((action) => (
        <Button
          key={action}
          size="xs"
          variant="light"
          color={COLORS[action]}
          loading={busy === action}
          disabled={busy !== null}
          onClick={() => ask(action)}
          data-testid={`broadcast-${action}`}
        >
          {t(`broadcasts.actions.${action}`)}
        </Button>
      ))}
    </Group>
  );
}
