import { IDS_MAX } from '@shared/list';
import { Alert, Box, Center, Group, Loader, Paper, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import type { EntityCalls } from '../../lib/entity-calls';
import type { SortBy } from '../../lib/list-preferences';
import { translateApiError } from '../../lib/server-messages';
import { confirmDelete } from '../common/confirm';
import { notifyError, notifySuccess } from '../common/notify';
import type { SectionKey } from '../layout/navigation';
import { PageBreadcrumbs } from '../layout/PageBreadcrumbs';
import { DeleteAllProgressBar, useDeleteAll } from './delete-all';
import { ListFooter, shownTotal } from './ListFooter';
import { ListTable } from './ListTable';
import { ListToolbar } from './ListToolbar';
import { moveById, priorityIds } from './reorder';
import type { EntityListState, ListColumn, ListQuery, ListRow } from './types';
import { useListPreferences } from './use-list-preferences';

export interface ListScreenProps<T extends ListRow> {
  /** Preferences key (dataTable:{user}:{org}:{listKey}). */
  listKey: string;
  /** Breadcrumb section; lists outside the navigation sections have none. */
  section?: SectionKey;
  titleKey: string;
  columns: ListColumn<T>[];
  defaultSort: SortBy;
  /** Drag-reorderable entity: rows can be dragged while sorted by priority. */
  reorderable?: boolean;
  createRoute?: string;
  /** Route name of the edit page; it takes the row id as :id. */
  updateRoute?: string;
  /** Route name of the item's read-only page (:id): a click on the row, or Enter on it, opens it. */
  viewRoute?: string;
  /** Delete and reorder calls; without them the list is read-only (no select, no delete). */
  calls?: Pick<EntityCalls<T, unknown>, 'remove' | 'removeMany' | 'reorder'>;
  /** The entity's SWR list hook (a module-level hook, so the rules of hooks hold). */
  useList: (query: ListQuery) => EntityListState<T>;
  /** How a row is named in the delete prompt. */
  itemLabel?: (row: T) => string;
  /** Extra filters, saved with the preferences and sent with the list query and "delete all". */
  filters?: ListFilters;
  /** Extra buttons next to the title (e.g. a link to an import page). */
  actions?: ReactNode;
  /** False for lists loaded whole (no page size choice). */
  paged?: boolean;
  /** Extra row actions (buttons) shown before edit and delete, e.g. an integration's credentials and sync. */
  rowActions?: (row: T) => ReactNode;
  /** Shown beneath the list (e.g. where the message list's older rows went). */
  footer?: ReactNode;
}

/** A list's extra filters: their empty values, their query parameters, and the inputs that edit them. */
export interface ListFilters {
  defaults: Record<string, unknown>;
  /** Query parameters of the current values (empty ones are dropped by the query string). */
  toQuery?: (values: Record<string, unknown>) => Record<string, unknown>;
  render: (values: Record<string, unknown>, onChange: (patch: Record<string, unknown>) => void) => ReactNode;
}

/** Saved filter values, each kept only when it has the default's shape (array, string, ...). */
function savedFilters(prefs: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(defaults)) {
    const saved = prefs[key];
    const sameShape = Array.isArray(fallback) ? Array.isArray(saved) : saved !== undefined && saved !== null && typeof saved === typeof fallback;
    values[key] = sameShape ? saved : fallback;
  }
  return values;
}

function isEmptyFilter(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

const SEARCH_DEBOUNCE_MS = 350;

/** The one list screen every entity uses: search, sort, select, delete (one, selected, all), load more, page size, drag-reorder. */
export function ListScreen<T extends ListRow>(props: ListScreenProps<T>) {
  const { t, i18n } = useTranslation();
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
  const filterDefaults = props.filters?.defaults;
  const filterValues = useMemo(() => savedFilters(prefs, filterDefaults ?? {}), [prefs, filterDefaults]);
  const toQuery = props.filters?.toQuery;
  const filtersJson = JSON.stringify(toQuery ? toQuery(filterValues) : filterValues);
  const filters = useMemo(() => {
    const extra = Object.fromEntries(Object.entries(JSON.parse(filtersJson) as Record<string, unknown>).filter(([, value]) => !isEmptyFilter(value)));
    return search ? { ...extra, search } : extra;
  }, [search, filtersJson]);
  const filtered = Object.keys(filters).length > 0;
  const query: ListQuery = { ...filters, page_size: prefs.itemsPerPage, sort_by: sort.key, sort_order: sort.order };
  const queryId = JSON.stringify(query);
  const list = props.useList(query);
  const draggable = Boolean(props.reorderable && props.calls) && sort.key === 'priority' && list.items.length > 1;
  // Say how to change the order: drag the handle, or first sort by the order column to get one.
  const reorderHint = props.reorderable && props.calls && list.items.length > 1 ? t(draggable ? 'list.reorderHint' : 'list.reorderSortHint') : null;
  const deletable = Boolean(props.calls);
  const itemLabel = props.itemLabel ?? ((row: T) => String(row.id));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the selection is emptied whenever the query changes, which is all queryId is here for
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
  const deleteAll = useDeleteAll(props.calls ? props.calls.removeMany : async () => ({ deleted: 0, more: false }));
  const labels = { confirmLabel: t('common.delete'), cancelLabel: t('common.cancel') };

  const deleteRow = (row: T) =>
    confirmDelete({
      ...labels,
      title: t('list.deleteOneTitle'),
      message: t('list.deleteOneMessage', { name: itemLabel(row) }),
      onConfirm: () => void run(() => props.calls!.remove(row.id), t('list.deletedOne')),
    });
  const deleteSelected = () => {
    const ids = list.items.filter((row) => selected.has(row.id)).map((row) => row.id);
    if (!ids.length) return;
    confirmDelete({
      ...labels,
      title: t('list.deleteSelectedTitle'),
      message: t('list.deleteSelectedMessage', { count: ids.length }),
      onConfirm: () => void run(() => props.calls!.removeMany({ ids }), t('list.deletedMany', { count: ids.length })),
    });
  };
  const confirmDeleteAll = () =>
    confirmDelete({
      ...labels,
      title: t('list.deleteAllTitle'),
      // A total that stopped at the server's cap reads "more than 10,000" here too.
      message: t(filtered ? 'list.deleteAllFilteredMessage' : 'list.deleteAllMessage', {
        count: shownTotal(t, i18n.language, list.total, list.totalCapped),
      }),
      onConfirm: () => void run(() => deleteAllMatching(), t('list.deletedAll')),
    });
  // When every matching row is loaded, delete exactly those: lists searched in the browser (fields,
  // integrations) may match more columns than the server's search would. Otherwise page by page on the server.
  const deleteAllMatching = () =>
    filtered && list.items.length >= list.total && list.items.length <= IDS_MAX
      ? props.calls!.removeMany({ ids: list.items.map((row) => row.id) })
      : deleteAll.run(filters, list.total);
  const reorder = (activeId: number, overId: number) => {
    const next = moveById(list.items, activeId, overId);
    if (next === list.items) return;
    list.showOrder(next);
    void run(() => props.calls!.reorder(priorityIds(next, sort.order)), t('list.orderSaved'));
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
    <div
      data-testid="list-screen"
      data-list={props.listKey}
      data-busy={busy || searchInput !== prefs.search || list.isLoading || list.isValidating ? 'true' : 'false'}
    >
      {props.section && <PageBreadcrumbs section={props.section} />}
      <Group justify="space-between" mb="md">
        <Title order={2}>{t(props.titleKey)}</Title>
        {props.actions && <Group gap="xs">{props.actions}</Group>}
      </Group>
      <Paper withBorder p="md">
        <ListToolbar
          search={searchInput}
          onSearch={setSearchInput}
          createHref={props.createRoute ? pathOf(table, props.createRoute) : null}
          selectedCount={list.items.filter((row) => selected.has(row.id)).length}
          total={list.total}
          onDeleteSelected={deletable ? deleteSelected : undefined}
          onDeleteAll={deletable ? confirmDeleteAll : undefined}
        />
        {deleteAll.progress && <DeleteAllProgressBar progress={deleteAll.progress} onStop={deleteAll.stop} />}
        {props.filters && <div data-testid="list-filters">{props.filters.render(filterValues, (patch) => updatePrefs(patch))}</div>}
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
            onToggle={deletable ? toggle : undefined}
            onToggleAll={toggleAll}
            editHref={props.updateRoute ? (row) => pathOf(table, props.updateRoute!, { id: row.id }) : undefined}
            openHref={props.viewRoute ? (row) => pathOf(table, props.viewRoute!, { id: row.id }) : undefined}
            onDelete={deletable ? deleteRow : undefined}
            rowActions={props.rowActions}
          />
        )}
        {reorderHint && (
          <Text c="dimmed" size="xs" mt="xs" data-testid="reorder-hint">
            {reorderHint}
          </Text>
        )}
        {!list.isLoading && list.items.length === 0 && !list.error && (
          <Text c="dimmed" ta="center" p="lg" data-testid="list-empty">
            {t('list.empty')}
          </Text>
        )}
        <ListFooter
          total={list.total}
          totalCapped={list.totalCapped}
          shown={list.items.length}
          pageSize={prefs.itemsPerPage}
          onPageSize={props.paged === false ? undefined : (size) => updatePrefs({ itemsPerPage: size })}
          hasMore={list.hasMore}
          loadingMore={list.isLoadingMore}
          onLoadMore={list.loadMore}
        />
      </Paper>
      {props.footer && <Box mt="md">{props.footer}</Box>}
    </div>
  );
}
