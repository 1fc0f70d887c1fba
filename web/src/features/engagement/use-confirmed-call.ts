import { useTranslation } from 'react-i18next';
import { confirmDelete } from '../../components/common/confirm';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { translateApiError } from '../../lib/server-messages';

/** The locale keys of one confirmed action: the prompt's title and text, its button, and what it says when done. */
export interface ConfirmKeys {
  title: string;
  confirm: string;
  action: string;
  done: string;
}

/**
 * Asks first, then calls, says so and runs `after` (a reload): the contact page's re-subscribe and Lift, which
 * change what is sent to a person, both go through it.
 */
export function useConfirmedCall(after: () => unknown) {
  const { t } = useTranslation();
  return (keys: ConfirmKeys, values: Record<string, string>, call: () => Promise<unknown>) =>
    confirmDelete({
      title: t(keys.title),
      message: t(keys.confirm, values),
      confirmLabel: t(keys.action),
      cancelLabel: t('common.cancel'),
      onConfirm: () =>
        void call().then(
          () => {
            notifySuccess(t(keys.done, values));
            void after();
          },
          (e) => notifyError(translateApiError(t, e)),
        ),
    });
}
