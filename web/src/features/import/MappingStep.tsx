import { ActionIcon, Alert, Group, NativeSelect, ScrollArea, Table, Text } from '@mantine/core';
import type { Field } from '@shared/contracts/field';
import { IMPORT_ADDRESS_TYPES } from '@shared/contracts/import';
import { IconCopyPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { choiceLabel, columnLabel, problemText } from './import-labels';
import { addressChoice, fieldChoice, NEW_FIELD_CHOICE, newMappingDraft, type MappingCheck, type MappingDraft } from './mapping';
import { NewFieldForm } from './NewFieldForm';
import { translateServerMessage } from '../../lib/server-messages';

/** How many sample values a column shows. */
const SAMPLES = 3;

/**
 * Step 2: each column goes to a target (name, note, an e-mail or phone address, tags, a custom field, a field
 * made from the column there and then, or ignored); a column can feed several targets. Problems show once the
 * user tried to go on, then live.
 */
export function MappingStep({
  drafts,
  onChange,
  headers,
  samples,
  fields,
  check,
  showProblems,
  serverErrors,
  onFieldCreated,
}: {
  drafts: MappingDraft[];
  onChange: (drafts: MappingDraft[]) => void;
  headers: string[] | null;
  samples: string[][];
  fields: Field[];
  check: MappingCheck;
  showProblems: boolean;
  /** 422 messages of the last start, by path (mapping, mapping.<i>.<key>). */
  serverErrors: Record<string, string[]>;
  /** A field made from a column: the page adds it to the fields it knows (the list reloads after). */
  onFieldCreated: (field: Field) => void;
}) {
  const { t } = useTranslation();
  const groups = [
    { group: t('imports.groups.contact'), items: ['ignore', 'name', 'note', 'tags'] },
    { group: t('imports.groups.address'), items: IMPORT_ADDRESS_TYPES.map(addressChoice) },
    { group: t('imports.groups.fields'), items: [...fields.map((field) => fieldChoice(field.id)), NEW_FIELD_CHOICE] },
  ].map((group) => ({ group: group.group, items: group.items.map((choice) => ({ value: choice, label: choiceLabel(t, choice, fields) })) }));

  const update = (index: number, choice: string) => onChange(drafts.map((draft, i) => (i === index ? { ...draft, choice } : draft)));
  const duplicate = (index: number) => onChange([...drafts.slice(0, index + 1), newMappingDraft(drafts[index].column), ...drafts.slice(index + 1)]);
  const remove = (index: number) => onChange(drafts.filter((_, i) => i !== index));
  const created = (index: number, field: Field) => {
    onFieldCreated(field);
    update(index, fieldChoice(field.id));
  };
  const general = [
    ...(showProblems ? check.general.map((problem) => problemText(t, problem)) : []),
    ...(serverErrors.mapping ?? []).map((text) => translateServerMessage(t, text)),
  ];
  const rowError = (index: number) => {
    const server = Object.entries(serverErrors)
      .filter(([path]) => path.startsWith(`mapping.${index}.`))
      .flatMap(([, messages]) => messages.map((text) => translateServerMessage(t, text)));
    const local = showProblems && check.rows[index] ? [problemText(t, check.rows[index])] : [];
    const all = [...new Set([...local, ...server])];
    return all.length ? all.join(' ') : undefined;
  };

  return (
    <>
      {general.length > 0 && (
        <Alert color="red" mb="md" data-testid="import-mapping-error">
          {[...new Set(general)].map((text) => (
            <div key={text}>{text}</div>
          ))}
        </Alert>
      )}
      <ScrollArea>
        <Table verticalSpacing="xs" data-testid="import-mapping">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('imports.mapping.column')}</Table.Th>
              <Table.Th>{t('imports.mapping.samples')}</Table.Th>
              <Table.Th>{t('imports.mapping.target')}</Table.Th>
              <Table.Th w={80} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {drafts.map((draft, index) => {
              const first = drafts.findIndex((other) => other.column === draft.column) === index;
              const values = samples
                .map((row) => row[draft.column] ?? '')
                .filter((value) => value.trim())
                .slice(0, SAMPLES);
              return (
                <Table.Tr key={draft.key} data-testid="mapping-row" data-column={draft.column}>
                  <Table.Td>
                    <Text fw={first ? 600 : 400} c={first ? undefined : 'dimmed'}>
                      {columnLabel(t, draft.column, headers)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {values.join(', ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <NativeSelect
                      aria-label={t('imports.mapping.targetOf', { column: columnLabel(t, draft.column, headers) })}
                      data-testid="mapping-target"
                      value={draft.choice}
                      data={groups}
                      error={rowError(index)}
                      onChange={(event) => update(index, event.currentTarget.value)}
                    />
                    {draft.choice === NEW_FIELD_CHOICE && (
                      <NewFieldForm
                        column={draft.column}
                        header={headers?.[draft.column]?.trim() ?? ''}
                        fields={fields}
                        onCreated={(field) => created(index, field)}
                      />
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('imports.mapping.again')}
                        title={t('imports.mapping.again')}
                        data-testid="mapping-again"
                        onClick={() => duplicate(index)}
                      >
                        <IconCopyPlus size={16} />
                      </ActionIcon>
                      {!first && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('imports.mapping.remove')}
                          title={t('imports.mapping.remove')}
                          data-testid="mapping-remove"
                          onClick={() => remove(index)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </>
  );
}
