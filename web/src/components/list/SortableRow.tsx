import { ActionIcon, Table } from '@mantine/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical } from '@tabler/icons-react';
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';

/** Clicks on these inside a row do their own thing (select, edit, delete, a link), not open the row. */
const OWN_CLICK = 'a, button, input, label, select, textarea, [role="checkbox"], [role="button"]';

/** Whether a click or key press on a row should open it: not one meant for a control inside the row. */
export function opensRow(event: MouseEvent<HTMLElement> | KeyboardEvent<HTMLElement>): boolean {
  const target = event.target as HTMLElement;
  const control = target.closest(OWN_CLICK);
  return !control || control === event.currentTarget || !event.currentTarget.contains(control);
}

/**
 * A table row that can be dragged by its handle (the handle is shown only when reordering is possible). With
 * `onOpen` the whole row opens its item: a click anywhere but on its controls, or Enter when the row has focus.
 */
export function SortableRow({
  id,
  draggable,
  dragLabel,
  onOpen,
  children,
}: {
  id: number;
  draggable: boolean;
  dragLabel: string;
  onOpen?: (newTab: boolean) => void;
  children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: !draggable });
  const openProps = onOpen
    ? {
        tabIndex: 0,
        'data-opens': 'true',
        onClick: (event: MouseEvent<HTMLTableRowElement>) => {
          // Selecting text in a row is not a click that opens it.
          if (!opensRow(event) || window.getSelection()?.toString()) return;
          onOpen(event.ctrlKey || event.metaKey);
        },
        onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => {
          if (event.key !== 'Enter' || event.target !== event.currentTarget) return;
          event.preventDefault();
          onOpen(event.ctrlKey || event.metaKey);
        },
      }
    : {};
  return (
    <Table.Tr
      ref={setNodeRef}
      data-testid="list-row"
      data-id={id}
      {...openProps}
      style={{
        cursor: onOpen ? 'pointer' : undefined,
        transform: CSS.Translate.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        opacity: isDragging ? 0.7 : undefined,
        background: isDragging ? 'var(--mantine-color-body)' : undefined,
      }}
    >
      <Table.Td w={36}>
        {draggable && (
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            aria-label={dragLabel}
            data-testid="row-drag-handle"
            style={{ cursor: 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            <IconGripVertical size={16} />
          </ActionIcon>
        )}
      </Table.Td>
      {children}
    </Table.Tr>
  );
}
