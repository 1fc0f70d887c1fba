import { ActionIcon, Group, Stack } from '@mantine/core';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Moves one entry of a list to another index (a new array; out-of-range indexes leave it as is). */
export function moveItem<T>(items: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return items;
  const next = items.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

function SortableItem({
  id,
  dragLabel,
  disabled,
  testId,
  children,
}: {
  id: string;
  dragLabel: string;
  disabled: boolean;
  testId: string;
  children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  return (
    <Group
      ref={setNodeRef}
      data-testid={testId}
      align="flex-start"
      gap="xs"
      wrap="nowrap"
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        opacity: isDragging ? 0.8 : undefined,
      }}
    >
      <ActionIcon
        ref={setActivatorNodeRef}
        variant="subtle"
        color="gray"
        mt={6}
        aria-label={dragLabel}
        data-testid="item-drag-handle"
        disabled={disabled}
        style={{ cursor: disabled ? 'default' : 'grab', touchAction: 'none' }}
        {...attributes}
        {...listeners}
      >
        <IconGripVertical size={16} />
      </ActionIcon>
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
    </Group>
  );
}

/**
 * A vertical list of form entries that can be reordered by dragging their handle (pointer or keyboard),
 * for nested list fields such as a contact's addresses or a field's options. Each entry needs a stable key.
 */
export function SortableList<T>({
  items,
  keyOf,
  onMove,
  renderItem,
  dragLabel,
  testId = 'sortable-item',
}: {
  items: T[];
  keyOf: (item: T) => string;
  onMove: (from: number, to: number) => void;
  renderItem: (item: T, index: number) => ReactNode;
  dragLabel: string;
  testId?: string;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const keys = items.map(keyOf);
  const onDragEnd = (event: DragEndEvent) => {
    if (!event.over || event.active.id === event.over.id) return;
    onMove(keys.indexOf(String(event.active.id)), keys.indexOf(String(event.over.id)));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={keys} strategy={verticalListSortingStrategy}>
        <Stack gap="xs">
          {items.map((item, index) => (
            <SortableItem key={keys[index]} id={keys[index]} dragLabel={dragLabel} disabled={items.length < 2} testId={testId}>
              {renderItem(item, index)}
            </SortableItem>
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}
