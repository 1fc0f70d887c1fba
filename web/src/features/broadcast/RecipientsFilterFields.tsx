import { MultiSelect, Select, Switch, TagsInput, TextInput } from '@mantine/core';
import type { Field } from '@shared/contracts/field';
import type { Tag } from '@shared/contracts/tag';
import { useTranslation } from 'react-i18next';
import { FormRow } from '../../components/form/FormRow';
import { useAllRows } from '../../components/list/use-client-list';
import type { BroadcastFormValues } from './broadcast-form';

type Change = (patch: Partial<BroadcastFormValues>) => void;

/** The recipients filter of the form (spec 5: ids, attributes, tags, address, skip_unsubscribed) plus search. */
export function RecipientsFilterFields({ values, onChange, error }: { values: BroadcastFormValues; onChange: Change; error?: string }) {
  const { t } = useTranslation();
  const { data: tags = [] } = useAllRows<Tag>('/tag');
  const { data: fields = [] } = useAllRows<Field>('/field');
  const field = fields.find((f) => String(f.id) === values.attribute_field);
  return (
    <>
      <FormRow>
        <MultiSelect
          label={t('broadcasts.filter.tags')}
          placeholder={t('broadcasts.filter.anyTag')}
          data-testid="form-field-tags"
          searchable
          clearable
          data={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
          value={values.tags}
          onChange={(tagIds) => onChange({ tags: tagIds })}
          error={error}
        />
        <TextInput
          label={t('broadcasts.filter.address')}
          placeholder={t('broadcasts.filter.addressPlaceholder')}
          data-testid="form-field-address"
          value={values.address}
          onChange={(e) => onChange({ address: e.currentTarget.value })}
        />
      </FormRow>
      <FormRow>
        <Select
          label={t('broadcasts.filter.field')}
          placeholder={t('broadcasts.filter.anyField')}
          data-testid="form-field-attribute-field"
          clearable
          data={fields.map((f) => ({ value: String(f.id), label: f.name }))}
          value={values.attribute_field}
          onChange={(id) => onChange({ attribute_field: id, attribute_value: '' })}
        />
        {field?.options?.length ? (
          <Select
            label={t('broadcasts.filter.value')}
            data-testid="form-field-attribute-value"
            data={field.options.map((o) => ({ value: String(o.id), label: o.value }))}
            value={values.attribute_value || null}
            onChange={(v) => onChange({ attribute_value: v ?? '' })}
          />
        ) : (
          <TextInput
            label={t('broadcasts.filter.value')}
            description={field?.type === 'boolean' ? t('broadcasts.filter.booleanHint') : undefined}
            data-testid="form-field-attribute-value"
            disabled={!field}
            value={values.attribute_value}
            onChange={(e) => onChange({ attribute_value: e.currentTarget.value })}
          />
        )}
      </FormRow>
      <FormRow>
        <TagsInput
          label={t('broadcasts.filter.ids')}
          description={t('broadcasts.filter.idsHint')}
          data-testid="form-field-ids"
          value={values.ids}
          onChange={(ids) => onChange({ ids: ids.filter((id) => /^\d+$/.test(id)) })}
        />
        <TextInput
          label={t('broadcasts.filter.search')}
          data-testid="form-field-search"
          value={values.search}
          onChange={(e) => onChange({ search: e.currentTarget.value })}
        />
      </FormRow>
      <Switch
        label={t('broadcasts.fields.skip_unsubscribed')}
        data-testid="form-field-skip_unsubscribed"
        checked={values.skip_unsubscribed}
        onChange={(e) => onChange({ skip_unsubscribed: e.currentTarget.checked })}
      />
    </>
  );
}
