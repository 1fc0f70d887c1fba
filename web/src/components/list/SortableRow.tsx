import { ActionIcon, Table } from '@mantine/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A table row that can be dragged by its handle (the handle is shown only when reordering is possible). */
export function SortableRow({ id, draggable, dragLabel, children }: { id: number; draggable: boolean; dragLabel: string; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: !draggable });
  return (
    <Table.Tr
      ref={setNodeRef}
      data-testid="list-row"
      data-id={id}
      style={{
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
