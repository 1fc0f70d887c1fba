import type { ImportSummary, LiveEvent } from '@shared/contracts/import';
import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { notifications } from '@mantine/notifications';
import { useInvalidateList } from '../../lib/list-revision';
import { useLiveEvents } from '../../lib/use-live';
import { CONTACT_PATH } from '../contact/api';
import { IMPORT_PATH } from './api';

/** The latest state of imports as live events reported it, by id (the history list shows it over its rows). */
export const liveImportsAtom = atom<Record<number, ImportSummary>>({});

/** The newer of a listed import and its live state (by updated_at, then progress). */
export function withLiveState<T extends ImportSummary>(row: T, live: ImportSummary | undefined): T {
  if (!live || live.id !== row.id) return row;
  const newer = live.updated_at > row.updated_at || (live.updated_at === row.updated_at && live.processed_bytes >= row.processed_bytes);
  return newer ? { ...row, ...live } : row;
}

/**
 * Listens to the live channel for the whole signed-in console: keeps import progress, and when an import
 * finishes shows a notification (data-testid import-finished) and refreshes the imports and contacts lists.
 */
export function useImportNotifications(): void {
  const { t } = useTranslation();
  const setLive = useSetAtom(liveImportsAtom);
  const invalidate = useInvalidateList();
  const { mutate } = useSWRConfig();
  const handle = useCallback(
    (event: LiveEvent) => {
      if (event.type !== 'import.progress' && event.type !== 'import.finished') return;
      const summary = event.import;
      setLive((current) => ({ ...current, [summary.id]: summary }));
      if (event.type !== 'import.finished') return;
      invalidate(IMPORT_PATH);
      invalidate(CONTACT_PATH);
      void mutate(`${IMPORT_PATH}/${summary.id}`);
      const ok = summary.status === 'success';
      notifications.show({
        id: `import-finished-${summary.id}`,
        title: t(ok ? 'imports.live.successTitle' : 'imports.live.failTitle'),
        message: t(ok ? 'imports.live.successText' : 'imports.live.failText', {
          file: summary.file_name,
          created: summary.created_count,
          updated: summary.updated_count,
          rejected: summary.rejected_count,
        }),
        color: ok ? (summary.rejected_count ? 'yellow' : 'green') : 'red',
        autoClose: 10_000,
        'data-testid': 'import-finished',
      });
    },
    [invalidate, mutate, setLive, t],
  );
  useLiveEvents(handle);
}
