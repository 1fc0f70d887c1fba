import { Button, Group, Progress, Text } from '@mantine/core';
import type { BulkDeleteResult } from '@shared/list';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeSettings } from '../../lib/runtime-settings';
import type { BulkDeleteBody } from '../../lib/entity-calls';

// "Delete all" of a list: the server deletes one removing page of the matching rows per request and says
// whether more remain, so a million rows go as many short requests with progress on screen (and a stop button:
// what is deleted stays deleted, whole rows only).

export interface DeleteAllProgress {
  deleted: number;
  /** The list's total when it began (what the user confirmed). */
  total: number;
}

/** Runs a paged delete-all; `progress` is null when none runs. */
export function useDeleteAll(removeMany: (body: BulkDeleteBody) => Promise<BulkDeleteResult>) {
  const [progress, setProgress] = useState<DeleteAllProgress | null>(null);
  const stopped = useRef(false);
  const { removingPageSize } = useRuntimeSettings();
  const run = async (filters: Record<string, unknown>, total: number): Promise<number> => {
    stopped.current = false;
    let deleted = 0;
    setProgress({ deleted, total });
    try {
      for (;;) {
        const page = await removeMany({ ...filters, all: true, page_size: removingPageSize });
        deleted += page.deleted;
        setProgress({ deleted, total: Math.max(total, deleted) });
        if (!page.more || page.deleted === 0 || stopped.current) return deleted;
      }
    } finally {
      setProgress(null);
    }
  };
  return { progress, run, stop: () => void (stopped.current = true) };
}

export function DeleteAllProgressBar({ progress, onStop }: { progress: DeleteAllProgress; onStop: () => void }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const percent = progress.total > 0 ? (progress.deleted / progress.total) * 100 : 0;
  return (
    <Group gap="sm" mb="md" wrap="nowrap" data-testid="delete-all-progress">
      <Progress
        value={percent}
        style={{ flex: 1 }}
        animated
        aria-label={t('list.deletingAll', { deleted: number.format(progress.deleted), total: number.format(progress.total) })}
      />
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {t('list.deletingAll', { deleted: number.format(progress.deleted), total: number.format(progress.total) })}
      </Text>
      <Button size="compact-sm" variant="default" onClick={onStop} data-testid="delete-all-stop">
        {t('list.stop')}
      </Button>
    </Group>
  );
}
