import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
}

/** Asks before an action; `onConfirm` runs only after the user clicks the confirm button (coloured `color`). */
export function confirmAction(options: ConfirmOptions & { color?: string }): void {
  modals.openConfirmModal({
    title: options.title,
    children: <Text size="sm">{options.message}</Text>,
    labels: { confirm: options.confirmLabel, cancel: options.cancelLabel },
    confirmProps: { color: options.color, 'data-testid': 'confirm-ok' },
    cancelProps: { 'data-testid': 'confirm-cancel' },
    onConfirm: options.onConfirm,
  });
}

/** Asks before a destructive action (delete), with a red confirm button. */
export function confirmDelete(options: ConfirmOptions): void {
  confirmAction({ ...options, color: 'red' });
}
