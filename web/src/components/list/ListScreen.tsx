import { Alert, Center, Group, Loader, Paper, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pathOf } from '../../app/route-table';
import { useRouteTable } from '../../app/services-context';
import type { EntityCalls } from '../../lib/entity-calls';
import type { SortBy } from '../../lib/list-preferences';
import { translateApiError } from '../../lib/server-messages';
import { confirmDelete } from '../common/confirm';
import { notifyError, notifySuccess } from '../common/notify';
import type { SectionKey } from '../layout/navigation';
import { PageBreadcrumbs } from '../layout/PageBreadcrumbs';
import { ListFooter } from './ListFooter';
import { ListTable } from './ListTable';
import { ListToolbar } from './ListToolbar';
import { moveById, priorityIds } from './reorder';
import type { EntityListState, ListColumn, ListQuery, ListRow } from './types';
import { useListPreferences } from './use-list-preferences';

export interface ListScreenProps<T extends ListRow> {
  /** Preferences key (dataTable:{user}:{org}:{listKey}). */
  listKey: string;
  section: SectionKey;
  titleKey: string;
  columns: ListColumn<T>[];
  defaultSort: SortBy;
  /** Drag-reorderable entity: rows can be dragged while sorted by priority. */
  reorderable?: boolean;
  createRoute?: string;
  /** Route name of the edit page; it takes the row id as :id. */
  updateRoute?: string;
  calls: Pick<EntityCalls<T, unknown>, 'remove' | 'removeMany' | 'reorder'>;
  /** The entity's SWR list hook (a module-level hook, so the rules of hooks hold). */
  useList: (query: ListQuery) => EntityListState<T>;
  /** How a row is named in the delete prompt. */
  itemLabel: (row: T) => string;
}

const SEARCH_DEBOUNCE_MS = 350;

/** The one list screen every entity uses: search, sort, select, delete (one, selected, all), load more, page size, drag-reorder. */
export function ListScreen<T extends ListRow>(props: ListScreenProps<T>) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const sortKeys = props.columns.filter((c) => c.sortable).map((c) => c.key);
  const [prefs, updatePrefs] = useListPreferences(props.listKey, { sortBy: props.defaultSort, sortKeys });
  const [searchInput, setSearchInput] = useState(prefs.search);
  const [debouncedSearch] = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (debouncedSearch !== prefs.search) updatePrefs({ search: debouncedSearch });
  }, [debouncedSearch, prefs.search, updatePrefs]);

  const sort = prefs.sortBy[0];
  const search = prefs.search.trim();
  const filters = useMemo(() => (search ? { search } : {}), [search]);
  const query: ListQuery = { ...filters, page_size: prefs.itemsPerPage, sort_by: sort.key, sort_order: sort.order };
  const queryId = JSON.stringify(query);
  const list = props.useList(query);
  const draggable = Boolean(props.reorderable) && sort.key === 'priority' && list.items.length > 1;

  useEffect(() => setSelected(new Set()), [queryId]);

  const run = async (action: () => Promise<unknown>, success: string) => {
    setBusy(true);
    try {
      await action();
      notifySuccess(success);
      setSelected(new Set());
    } catch (error) {
      notifyError(translateApiError(t, error));
    } finally {
      await list.refresh();
      setBusy(false);
    }
  };
  const labels = { confirmLabel: t('common.delete'), cancelLabel: t('common.cancel') };

  const deleteRow = (row: T) =>
    confirmDelete({
      ...labels,
      title: t('list.deleteOneTitle'),
      message: t('list.deleteOneMessage', { name: props.itemLabel(row) }),
      onConfirm: () => void run(() => props.calls.remove(row.id), t('list.deletedOne')),
    });
  const deleteSelected = () => {
    const ids = list.items.filter((row) => selected.has(row.id)).map((row) => row.id);
    if (!ids.length) return;
    confirmDelete({
      ...labels,
      title: t('list.deleteSelectedTitle'),
      message: t('list.deleteSelectedMessage', { count: ids.length }),
      onConfirm: () => void run(() => props.calls.removeMany({ ids }), t('list.deletedMany', { count: ids.length })),
    });
  };
  const deleteAll = () =>
    confirmDelete({
      ...labels,
      title: t('list.deleteAllTitle'),
      message: t(search ? 'list.deleteAllFilteredMessage' : 'list.deleteAllMessage', { count: list.total }),
      onConfirm: () => void run(() => props.calls.removeMany({ ...filters }), t('list.deletedAll')),
    });
  const reorder = (activeId: number, overId: number) => {
    const next = moveById(list.items, activeId, overId);
    if (next === list.items) return;
    list.showOrder(next);
    void run(() => props.calls.reorder(priorityIds(next, sort.order)), t('list.orderSaved'));
  };

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected((current) => (list.items.every((row) => current.has(row.id)) ? new Set() : new Set(list.items.map((row) => row.id))));

  return (
    <div data-testid="list-screen" data-list={props.listKey} data-busy={busy || searchInput !== prefs.search || list.isLoading || list.isValidating ? 'true' : 'false'}>
      <PageBreadcrumbs section={props.section} />
      <Group justify="space-between" mb="md">
        <Title order={2}>{t(props.titleKey)}</Title>
      </Group>
      <Paper withBorder p="md">
        <ListToolbar
          search={searchInput}
          onSearch={setSearchInput}
          createHref={props.createRoute ? pathOf(table, props.createRoute) : null}
          selectedCount={list.items.filter((row) => selected.has(row.id)).length}
          total={list.total}
          onDeleteSelected={deleteSelected}
          onDeleteAll={deleteAll}
        />
        {list.error ? (
          <Alert color="red" mb="md" data-testid="list-error">
            {translateApiError(t, list.error)}
          </Alert>
        ) : null}
        {list.isLoading && list.items.length === 0 ? (
          <Center p="xl">
            <Loader />
          </Center>
        ) : (
          <ListTable
            items={list.items}
            columns={props.columns}
            sort={sort}
            onSort={(next) => updatePrefs({ sortBy: [next] })}
            draggable={draggable}
            onReorder={reorder}
            selected={selected}
            onToggle={toggle}
            onToggleAll={toggleAll}
            editHref={props.updateRoute ? (row) => pathOf(table, props.updateRoute!, { id: row.id }) : undefined}
            onDelete={deleteRow}
          />
        )}
        {!list.isLoading && list.items.length === 0 && !list.error && (
          <Text c="dimmed" ta="center" p="lg" data-testid="list-empty">
            {t('list.empty')}
          </Text>
        )}
        <ListFooter
          total={list.total}
          shown={list.items.length}
          pageSize={prefs.itemsPerPage}
          onPageSize={(size) => updatePrefs({ itemsPerPage: size })}
          hasMore={list.hasMore}
          loadingMore={list.isLoadingMore}
          onLoadMore={list.loadMore}
        />
      </Paper>
    </div>
  );
}
