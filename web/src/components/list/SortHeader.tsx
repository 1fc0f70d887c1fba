import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { SortBy } from '../../lib/list-preferences';

/** The next sort after clicking a column: ascending first, then it toggles. */
export function nextSort(current: SortBy, key: string): SortBy {
  if (current.key !== key) return { key, order: 'asc' };
  return { key, order: current.order === 'asc' ? 'desc' : 'asc' };
}

/** A column header; sortable ones are buttons (data-testid sort-<key>) showing the current direction. */
export function SortHeader({
  columnKey,
  label,
  sortable,
  sort,
  onSort,
  width,
}: {
  columnKey: string;
  label: string;
  sortable?: boolean;
  sort: SortBy;
  onSort: (sort: SortBy) => void;
  width?: number | string;
}) {
  if (!sortable) return <Table.Th w={width}>{label}</Table.Th>;
  const active = sort.key === columnKey;
  const Icon = !active ? IconSelector : sort.order === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th w={width} aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton data-testid={`sort-${columnKey}`} data-sort={active ? sort.order : undefined} onClick={() => onSort(nextSort(sort, columnKey))}>
        <Group gap={4} wrap="nowrap">
          <Text fw={600} size="sm">
            {label}
          </Text>
          <Icon size={14} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
