import { Badge, Group } from '@mantine/core';
import type { Campaign } from '@shared/contracts/campaign';
import { DateTime } from '../../components/common/DateTime';
import type { FormFieldConfig } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { settingChipText } from './settings';
import { SettingsEditor } from './SettingsEditor';

/** Every settings entry as a chip (spec 2: the settings column shows all chips). */
function SettingChips({ campaign }: { campaign: Campaign }) {
  return (
    <Group gap={4} maw={560}>
      {campaign.settings.map((setting, index) => (
        // Whole texts, wrapped when long: the chips never cut a recipient short.
        <Badge
          key={index}
          variant="light"
          tt="none"
          radius="sm"
          miw={0}
          h="auto"
          py={2}
          fw={500}
          data-testid="setting-chip"
          styles={{ label: { whiteSpace: 'normal', overflow: 'visible', wordBreak: 'break-word' } }}
        >
          {settingChipText(setting)}
        </Badge>
      ))}
    </Group>
  );
}

/** Campaign list columns (server-sorted, except the settings). */
export const CAMPAIGN_COLUMNS: ListColumn<Campaign>[] = [
  { key: 'name', labelKey: 'campaigns.fields.name', sortable: true },
  { key: 'alias', labelKey: 'campaigns.fields.alias', sortable: true, render: (row) => row.alias ?? '' },
  { key: 'settings', labelKey: 'campaigns.fields.settings', render: (row) => <SettingChips campaign={row} /> },
  { key: 'updated_at', labelKey: 'list.columns.updated_at', sortable: true, render: (row) => <DateTime value={row.updated_at} /> },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** The campaign form: name (required), alias, the settings list, note. */
export const CAMPAIGN_FIELDS: FormFieldConfig[] = [
  { name: 'name', labelKey: 'campaigns.fields.name', required: true, maxLength: 200, autoFocus: true },
  { name: 'alias', labelKey: 'campaigns.fields.alias', maxLength: 100, descriptionKey: 'campaigns.hints.alias' },
  { name: 'settings', labelKey: 'campaigns.fields.settings', kind: 'custom', required: true, render: (props) => <SettingsEditor props={props} /> },
  { name: 'note', labelKey: 'campaigns.fields.note', kind: 'textarea', maxLength: 1000 },
];
