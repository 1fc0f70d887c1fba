import { Button, CloseButton, Group, TextInput } from '@mantine/core';
import { IconPlus, IconSearch, IconTrash, IconTrashX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

export interface ListToolbarProps {
  search: string;
  onSearch: (value: string) => void;
  createHref: string | null;
  selectedCount: number;
  total: number;
  /** Absent on read-only lists (no delete buttons). */
  onDeleteSelected?: () => void;
  onDeleteAll?: () => void;
}

/** Search box, create button, delete selected and delete all. */
export function ListToolbar(props: ListToolbarProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mb="md" gap="sm">
      <TextInput
        placeholder={t('list.search')}
        aria-label={t('list.search')}
        data-testid="list-search"
        leftSection={<IconSearch size={16} />}
        rightSection={props.search ? <CloseButton size="sm" aria-label={t('list.clearSearch')} onClick={() => props.onSearch('')} /> : null}
        value={props.search}
        onChange={(event) => props.onSearch(event.currentTarget.value)}
        w={{ base: '100%', sm: 300 }}
      />
      <Group gap="xs">
        {props.onDeleteSelected && (
          <Button
            variant="light"
            color="red"
            leftSection={<IconTrash size={16} />}
            disabled={props.selectedCount === 0}
            onClick={props.onDeleteSelected}
            data-testid="list-delete-selected"
          >
            {t('list.deleteSelected', { count: props.selectedCount })}
          </Button>
        )}
        {props.onDeleteAll && (
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrashX size={16} />}
            disabled={props.total === 0}
            onClick={props.onDeleteAll}
            data-testid="list-delete-all"
          >
            {t('list.deleteAll')}
          </Button>
        )}
        {props.createHref && (
          <Link href={props.createHref} asChild>
            <Button component="a" href={props.createHref} leftSection={<IconPlus size={16} />} data-testid="list-create">
              {t('common.create')}
            </Button>
          </Link>
        )}
      </Group>
    </Group>
  );
}
