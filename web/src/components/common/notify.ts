import { notifications } from '@mantine/notifications';

/** Shows a green success message (after save or delete), in place of any message still shown: an earlier red one is over. */
export function notifySuccess(message: string): void {
  notifications.clean();
  notifications.show({ message, color: 'green', autoClose: 3000 });
}

/** Shows a red error message (a failed action outside a form). */
export function notifyError(message: string): void {
  notifications.show({ message, color: 'red', autoClose: 6000 });
}
