import { Badge, Loader } from '@mantine/core';
import { IconCircleCheck, IconClock, IconHourglass, IconPlayerPause, IconX } from '@tabler/icons-react';
import type { BroadcastStatus } from '@shared/contracts/broadcast';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Colour and icon of each broadcast status (spec 4: shown with colours and icons; sending spins). */
const LOOK: Record<BroadcastStatus, { color: string; icon: ReactNode }> = {
  waiting: { color: 'gray', icon: <IconClock size={14} /> },
  queued: { color: 'cyan', icon: <IconHourglass size={14} /> },
  sending: { color: 'blue', icon: <Loader size={12} color="blue" data-testid="status-spinner" /> },
  paused: { color: 'yellow', icon: <IconPlayerPause size={14} /> },
  cancelled: { color: 'red', icon: <IconX size={14} /> },
  finished: { color: 'green', icon: <IconCircleCheck size={14} /> },
};

/** The chip is as wide as its words in every language: never cut ("ABGEBROC…"), the column makes room instead. */
const WHOLE = { root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } } as const;

/** A broadcast's status as a coloured chip with its icon. */
export function BroadcastStatusBadge({ status }: { status: BroadcastStatus }) {
  const { t } = useTranslation();
  const look = LOOK[status];
  return (
    <Badge color={look.color} variant="light" leftSection={look.icon} styles={WHOLE} data-testid="broadcast-status" data-status={status}>
      {t(`broadcasts.statuses.${status}`)}
    </Badge>
  );
}
