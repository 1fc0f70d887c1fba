import { ActionIcon, Button, Group, Input, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { Sender } from '@shared/contracts/sender';
import type { TemplateListItem } from '@shared/contracts/template';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from '../../components/form/RemoteSelect';
import type { CustomFieldProps } from '../../components/form/types';
import { senderLabel } from '../template/TestMessageDialog';
import { emptySetting, moveSetting, senderFitsSetting, withSender, withTemplate, type SettingRow } from './settings';
import { fieldErrorText } from '../../lib/field-errors';

const templateLabel = (template: Pick<TemplateListItem, 'name' | 'type'>) => `${template.name} (${template.type})`;

/**
 * The campaign's settings list: each entry a template, a sender that fits it and an optional fixed recipient;
 * entries can be added, removed and moved. Messages land on settings.<i>.<field>.
 */
export function SettingsEditor({ props }: { props: CustomFieldProps }) {
  const { t } = useTranslation();
  const rows = (props.value as SettingRow[] | null) ?? [];
  // Any change may move entries, so every message of the list is cleared with it.
  const set = (next: SettingRow[]) => props.onChange(next, Object.keys(props.errors));
  const update = (index: number, row: SettingRow) => set(rows.map((current, i) => (i === index ? row : current)));

  return (
    <Input.Wrapper
      label={t('campaigns.fields.settings')}
      description={t('campaigns.hints.settings')}
      withAsterisk
      error={fieldErrorText(t, props.errors.settings)}
      data-testid="form-field-settings"
    >
      <Stack gap="sm" mt={6}>
        {rows.map((row, index) => (
          <Paper key={row.key} withBorder p="sm" data-testid="setting-row" data-index={index}>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <Text fw={600} size="sm" pt={30} w={20}>
                {index + 1}
              </Text>
              <div style={{ flex: '1 1 220px' }}>
                <RemoteSelect<TemplateListItem>
                  path="/template"
                  label={t('campaigns.fields.template')}
                  required
                  value={row.template_id}
                  selected={row.template ? ({ ...row.template } as TemplateListItem) : null}
                  optionLabel={templateLabel}
                  error={fieldErrorText(t, props.errors[`settings.${index}.template_id`])}
                  testId={`setting-template-${index}`}
                  onChange={(_id, item) => update(index, withTemplate(row, item ? { id: item.id, name: item.name, type: item.type } : null))}
                />
              </div>
              <div style={{ flex: '1 1 220px' }}>
                <RemoteSelect<Sender>
                  path="/sender"
                  label={t('campaigns.fields.sender')}
                  required
                  value={row.sender_id}
                  selected={row.sender ? ({ ...row.sender } as Sender) : null}
                  filter={(sender) => senderFitsSetting(row, sender.type)}
                  optionLabel={senderLabel}
                  nothingFound={t('campaigns.noFittingSenders')}
                  error={fieldErrorText(t, props.errors[`settings.${index}.sender_id`])}
                  testId={`setting-sender-${index}`}
                  onChange={(_id, item) => update(index, withSender(row, item ? { id: item.id, value: item.value, name: item.name, type: item.type } : null))}
                />
              </div>
              <TextInput
                style={{ flex: '1 1 200px' }}
                label={t('campaigns.fields.to_address')}
                placeholder={row.sender?.type === 'phone' ? '+15551234567' : t('campaigns.hints.toAddress')}
                maxLength={254}
                value={row.to_address}
                error={fieldErrorText(t, props.errors[`settings.${index}.to_address`])}
                data-testid={`setting-to-${index}`}
                onChange={(event) => update(index, { ...row, to_address: event.currentTarget.value })}
              />
              <Group gap={2} pt={26} wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={t('campaigns.moveUp')}
                  title={t('campaigns.moveUp')}
                  disabled={index === 0}
                  data-testid={`setting-up-${index}`}
                  onClick={() => set(moveSetting(rows, index, index - 1))}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  aria-label={t('campaigns.moveDown')}
                  title={t('campaigns.moveDown')}
                  disabled={index === rows.length - 1}
                  data-testid={`setting-down-${index}`}
                  onClick={() => set(moveSetting(rows, index, index + 1))}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('campaigns.removeSetting')}
                  title={t('campaigns.removeSetting')}
                  data-testid={`setting-remove-${index}`}
                  onClick={() => set(rows.filter((_, i) => i !== index))}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Group>
          </Paper>
        ))}
        <Group>
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => set([...rows, emptySetting()])} data-testid="settings-add">
            {t('campaigns.addSetting')}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
