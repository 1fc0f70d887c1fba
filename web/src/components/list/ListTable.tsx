import { ActionIcon, Checkbox, Group, Table } from '@mantine/core';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { SortBy } from '../../lib/list-preferences';
import { SortableRow } from './SortableRow';
import { SortHeader } from './SortHeader';
import type { ListColumn, ListRow } from './types';

export interface ListTableProps<T extends ListRow> {
  items: T[];
  columns: ListColumn<T>[];
  sort: SortBy;
  onSort: (sort: SortBy) => void;
  /** Rows can be dragged (reorderable entity sorted by priority). */
  draggable: boolean;
  onReorder: (activeId: number, overId: number) => void;
  selected: Set<number>;
  /** Absent on read-only lists: no select column. */
  onToggle?: (id: number) => void;
  onToggleAll: () => void;
  editHref?: (row: T) => string | null;
  /** Where a click on the row (or Enter on it) leads: the item's own page. */
  openHref?: (row: T) => string | null;
  onDelete?: (row: T) => void;
  /** Extra actions of a row, shown before edit and delete. */
  rowActions?: (row: T) => ReactNode;
}

/** The actions column stays in view at the table's right edge when a wide table scrolls sideways. */
const STICKY_END: CSSProperties = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
  boxShadow: '-6px 0 6px -6px var(--mantine-color-default-border)',
};

/** The list's table: select column, sortable headers, rows (drag-reorderable), row actions edit and delete. */
export function ListTable<T extends ListRow>(props: ListTableProps<T>) {
  const { t } = useTranslation();
  const { items, columns, selected } = props;
  const [, navigate] = useLocation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const allSelected = items.length > 0 && items.every((row) => selected.has(row.id));
  const someSelected = !allSelected && items.some((row) => selected.has(row.id));
  const selectable = Boolean(props.onToggle);
  const hasActions = Boolean(props.editHref || props.onDelete || props.rowActions);

  const onDragEnd = (event: DragEndEvent) => {
    if (event.over && event.active.id !== event.over.id) props.onReorder(Number(event.active.id), Number(event.over.id));
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs" highlightOnHover data-testid="list-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36} />
              {selectable && (
                <Table.Th w={36}>
                  <Checkbox
                    aria-label={t('list.selectAll')}
                    data-testid="list-select-all"
                    checked={allSelected}
                    indeterminate={someSelected}
                    disabled={items.length === 0}
                    onChange={props.onToggleAll}
                  />
                </Table.Th>
              )}
              {columns.map((column) => (
                <SortHeader
                  key={column.key}
                  columnKey={column.key}
                  label={t(column.labelKey)}
                  sortable={column.sortable}
                  sort={props.sort}
                  onSort={props.onSort}
                  width={column.width}
                />
              ))}
              {hasActions && (
                <Table.Th w={props.rowActions ? undefined : 90} style={STICKY_END}>
                  {t('list.actions')}
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <SortableContext items={items.map((row) => row.id)} strategy={verticalListSortingStrategy} disabled={!props.draggable}>
              {items.map((row) => {
                const href = props.editHref?.(row) ?? null;
                const open = props.openHref?.(row) ?? null;
                return (
                  <SortableRow
                    key={row.id}
                    id={row.id}
                    draggable={props.draggable}
                    dragLabel={t('list.drag')}
                    onOpen={open ? (newTab) => (newTab ? window.open(open, '_blank', 'noopener') : navigate(open)) : undefined}
                  >
                    {selectable && (
                      <Table.Td>
                        <Checkbox
                          aria-label={t('list.selectRow')}
                          data-testid="row-select"
                          checked={selected.has(row.id)}
                          onChange={() => props.onToggle?.(row.id)}
                        />
                      </Table.Td>
                    )}
                    {columns.map((column) => (
                      <Table.Td key={column.key} data-column={column.key}>
                        {column.render ? column.render(row) : String((row as Record<string, unknown>)[column.key] ?? '')}
                      </Table.Td>
                    ))}
                    {hasActions && (
                      <Table.Td style={STICKY_END}>
                        <Group gap={4} wrap="nowrap">
                          {props.rowActions?.(row)}
                          {href && (
                            <Link href={href} asChild>
                              <ActionIcon
                                component="a"
                                href={href}
                                variant="subtle"
                                aria-label={t('common.edit')}
                                title={t('common.edit')}
                                data-testid="row-edit"
                              >
                                <IconPencil size={16} />
                              </ActionIcon>
                            </Link>
                          )}
                          {props.onDelete && (
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={t('common.delete')}
                              title={t('common.delete')}
                              data-testid="row-delete"
                              onClick={() => props.onDelete?.(row)}
                            >
                              <IconTrash size={16} />
                            </ActionIcon>
                          )}
                        </Group>
                      </Table.Td>
                    )}
                  </SortableRow>
                );
              })}
            </SortableContext>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </DndContext>
  );
}
