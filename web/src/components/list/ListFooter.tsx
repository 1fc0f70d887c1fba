import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/numbers';
import { config } from '../../lib/config';

/** A list's total for display: the number, or "more than N" when the server stopped counting at its cap. */
export function shownTotal(t: (key: string, options?: Record<string, unknown>) => string, language: string, total: number, capped?: boolean): string | number {
  return capped ? t('list.moreThan', { value: formatNumber(total, language) }) : formatNumber(total, language);
}

/** Total count, page size select (absent for lists loaded whole) and the load-more button. */
export function ListFooter({
  total,
  totalCapped,
  shown,
  pageSize,
  onPageSize,
  hasMore,
  loadingMore,
  onLoadMore,
}: {
  total: number;
  totalCapped?: boolean;
  shown: number;
  pageSize: number;
  onPageSize?: (size: number) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}) {
  const { t, i18n } = useTranslation();
  const totalText = String(shownTotal(t, i18n.language, total, totalCapped));
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Text size="sm" c="dimmed">
        {t('list.total')}:{' '}
        <span data-testid="list-total" data-capped={totalCapped ? 'true' : undefined}>
          {totalText}
        </span>{' '}
        · {t('list.shown', { count: formatNumber(shown, i18n.language) })}
      </Text>
      {hasMore && (
        <Button variant="default" onClick={onLoadMore} loading={loadingMore} data-testid="list-load-more">
          {t('list.loadMore')}
        </Button>
      )}
      {onPageSize && (
        <Group gap="xs">
          <Text size="sm">{t('list.perPage')}</Text>
          <NativeSelect
            aria-label={t('list.perPage')}
            data-testid="list-page-size"
            size="xs"
            value={String(pageSize)}
            onChange={(event) => onPageSize(Number(event.currentTarget.value))}
            data={config.pageSizes.map((size) => String(size))}
          />
        </Group>
      )}
    </Group>
  );
}
