import { Badge, Box, NativeSelect } from '@mantine/core';
import { ADDRESS_TYPES } from '@shared/address';
import type { BlacklistEntry, BlacklistInput } from '@shared/contracts/blacklist';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import type { FormFieldConfig, FormValues } from '../../components/form/types';
import type { ListFilters } from '../../components/list/ListScreen';
import type { ListColumn } from '../../components/list/types';
import { submitAddressErrors } from '../contact/address-rules';
import { AddressValueInput } from '../contact/AddressValueInput';
import { fieldErrorText } from '../../lib/field-errors';
import { SuppressionBadge } from '../../components/common/SuppressionBadge';

function AddressTypeBadge({ type }: { type: string }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={type === 'phone' ? 'teal' : 'indigo'}>
      {t(`audience.addressTypes.${type}`, { defaultValue: type })}
    </Badge>
  );
}

/** Blacklist columns (spec 3: type, value, info, created_at). */
export const BLACKLIST_COLUMNS: ListColumn<BlacklistEntry>[] = [
  { key: 'type', labelKey: 'blacklist.fields.type', sortable: true, width: 110, render: (row) => <AddressTypeBadge type={row.type} /> },
  {
    key: 'value',
    labelKey: 'blacklist.fields.value',
    sortable: true,
    render: (row) => (
      <>
        <span style={{ wordBreak: 'break-all' }}>{row.value}</span>
        {/* On a phone the info column is out of view: the reason rides with the address. */}
        {row.reason && (
          <Box hiddenFrom="sm" mt={4}>
            <SuppressionBadge reason={row.reason} />
          </Box>
        )}
      </>
    ),
  },
  {
    key: 'info',
    labelKey: 'blacklist.fields.info',
    render: (row) => (
      <>
        {row.reason && <SuppressionBadge reason={row.reason} />} {row.info ?? ''}
      </>
    ),
  },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
];

function TypeFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      mb="md"
      w={220}
      label={t('blacklist.fields.type')}
      data-testid="filter-type"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[{ value: '', label: t('audience.filters.anyType') }, ...ADDRESS_TYPES.map((type) => ({ value: type, label: t(`audience.addressTypes.${type}`) }))]}
    />
  );
}

/** The blacklist's filter: by address type. */
export const BLACKLIST_FILTERS: ListFilters = {
  defaults: { type: '' },
  render: (values, onChange) => <TypeFilter value={String(values.type ?? '')} onChange={(type) => onChange({ type })} />,
};

/** The create form: type (email or phone), value in the type's format (checked live), optional info. */
export function blacklistFormFields(types: readonly string[]): FormFieldConfig[] {
  return [
    {
      name: 'type',
      labelKey: 'blacklist.fields.type',
      kind: 'select',
      required: true,
      choices: types.map((type) => ({ value: type, labelKey: `audience.addressTypes.${type}` })),
    },
    {
      name: 'value',
      labelKey: 'blacklist.fields.value',
      kind: 'custom',
      required: true,
      render: ({ value, onChange, errors, values }) => <BlacklistValue type={values.type} value={String(value ?? '')} onChange={onChange} errors={errors} />,
    },
    { name: 'info', labelKey: 'blacklist.fields.info', kind: 'textarea', maxLength: 1000, descriptionKey: 'blacklist.infoHint' },
  ];
}

function BlacklistValue({
  type,
  value,
  onChange,
  errors,
}: {
  type: unknown;
  value: string;
  onChange: (value: string) => void;
  errors: Record<string, string[]>;
}) {
  const { t } = useTranslation();
  return (
    <AddressValueInput
      label={t('blacklist.fields.value')}
      required
      type={type}
      value={value}
      onChange={onChange}
      serverError={fieldErrorText(t, errors.value)}
      testId="form-field-value"
    />
  );
}

/** The create form's starting values: an e-mail address by default. */
export function blacklistInitial(): FormValues {
  return { type: 'email', value: '', info: '' };
}

/** Browser checks before creating: the type, and the value in that type's format. */
export function validateBlacklist(values: FormValues): Record<string, string[]> {
  const problems = submitAddressErrors(values.type, values.value);
  const out: Record<string, string[]> = {};
  if (problems.type) out.type = [problems.type];
  if (problems.value) out.value = [problems.value];
  return out;
}

/** The request body of a blacklist entry: type, value, and info when given. */
export function blacklistInput(values: FormValues): BlacklistInput {
  const info = String(values.info ?? '').trim();
  return { type: values.type as BlacklistInput['type'], value: String(values.value ?? ''), info: info || null };
}
