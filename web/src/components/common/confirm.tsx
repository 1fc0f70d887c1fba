import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/** Asks before a destructive action (delete); `onConfirm` runs only after the user clicks the confirm button. */
export function confirmDelete(options: { title: string; message: string; confirmLabel: string; cancelLabel: string; onConfirm: () => void }): void {
  modals.openConfirmModal({
    title: options.title,
    children: <Text size="sm">{options.message}</Text>,
    labels: { confirm: options.confirmLabel, cancel: options.cancelLabel },
    confirmProps: { color: 'red', 'data-testid': 'confirm-ok' },
    cancelProps: { 'data-testid': 'confirm-cancel' },
    onConfirm: options.onConfirm,
  });
}
