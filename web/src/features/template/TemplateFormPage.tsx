import { Button } from '@mantine/core';
import { hasSubject, TEMPLATE_TYPES, type Template, type TemplateInput, type TemplateType, type TemplateUpdate } from '@shared/contracts/template';

const isTemplateType = (value: unknown): value is TemplateType => (TEMPLATE_TYPES as readonly unknown[]).includes(value);
import { IconEye, IconSend } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf, type PageProps } from '../../lib/route-table';
import { useRouteTable, useServices } from '../../lib/services-context';
import { notifyError } from '../../components/common/notify';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import type { CustomFieldProps, FormFieldConfig } from '../../components/form/types';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { RichTextEditor, type RichTextHandle } from '../../components/rich-text/RichTextEditor';
import { fieldErrorText } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { useDictionary } from '../../lib/dictionary';
import { useTemplate, useTemplateCalls } from './api';
import { uploadAttachments } from './attachment-api';
import { AttachmentsPanel } from './AttachmentsPanel';
import { InsertTargets, PlaceholderHelp, PlaceholderInput } from './placeholders';
import { TestMessageDialog } from './TestMessageDialog';
import {
  afterTemplateChange,
  isRichType,
  templateCreatePayload,
  templateFormValues,
  templateFormWidth,
  templateUpdatePayload,
  validateTemplate,
} from './template-config';

/** The body: the rich-text editor for html and email templates, a text area for text (SMS) templates. */
function BodyField({ props, targets, editor }: { props: CustomFieldProps; targets: InsertTargets; editor: React.RefObject<RichTextHandle | null> }) {
  const { t } = useTranslation();
  const value = String(props.value ?? '');
  const error = fieldErrorText(t, props.errors.body);
  if (!isRichType(props.values.type)) {
    return (
      <PlaceholderInput
        name="body"
        label={t('templates.fields.body')}
        description={t('templates.hints.textBody')}
        required
        multiline
        isFallback
        value={value}
        onChange={(next) => props.onChange(next)}
        error={error}
        targets={targets}
      />
    );
  }
  const target = {
    rich: true,
    insertText: (text: string) => editor.current?.insertText(text),
    insertHtml: (html: string) => editor.current?.insertHtml(html),
  };
  targets.fallback = target;
  return (
    <RichTextEditor
      ref={editor}
      label={t('templates.fields.body')}
      required
      testId="form-field-body"
      value={value}
      onChange={(html) => props.onChange(html)}
      onFocus={() => (targets.current = target)}
      error={error}
    />
  );
}

/** The template form's fields; a subject for html and email templates, a plain body for email templates only. */
function templateFields(
  types: readonly string[],
  creating: boolean,
  targets: InsertTargets,
  editor: React.RefObject<RichTextHandle | null>,
): FormFieldConfig[] {
  const isEmail = (values: Record<string, unknown>) => values.type === 'email';
  const withSubject = (values: Record<string, unknown>) => isTemplateType(values.type) && hasSubject(values.type);
  return [
    {
      name: 'type',
      labelKey: 'templates.fields.type',
      kind: 'select',
      required: true,
      disabled: !creating,
      descriptionKey: creating ? 'templates.hints.type' : undefined,
      choices: types.map((type) => ({ value: type, labelKey: `templates.types.${type}` })),
    },
    { name: 'name', labelKey: 'templates.fields.name', required: true, maxLength: 200, autoFocus: true },
    { name: 'alias', labelKey: 'templates.fields.alias', maxLength: 100, descriptionKey: 'templates.hints.alias' },
    {
      name: 'subject',
      labelKey: 'templates.fields.subject',
      kind: 'custom',
      visible: withSubject,
      render: (props) => <SubjectField props={props} targets={targets} />,
    },
    { name: 'placeholders', labelKey: 'templates.placeholders.title', kind: 'custom', render: () => <PlaceholderHelp targets={targets} /> },
    {
      name: 'body',
      labelKey: 'templates.fields.body',
      kind: 'custom',
      required: true,
      render: (props) => <BodyField props={props} targets={targets} editor={editor} />,
    },
    {
      name: 'body_plain',
      labelKey: 'templates.fields.body_plain',
      kind: 'custom',
      visible: isEmail,
      render: (props) => <PlainBodyField props={props} targets={targets} />,
    },
    { name: 'note', labelKey: 'templates.fields.note', kind: 'textarea', maxLength: 1000 },
  ];
}

function SubjectField({ props, targets }: { props: CustomFieldProps; targets: InsertTargets }) {
  const { t } = useTranslation();
  return (
    <PlaceholderInput
      name="subject"
      label={t('templates.fields.subject')}
      description={t('templates.hints.subject')}
      maxLength={1000}
      value={String(props.value ?? '')}
      onChange={(next) => props.onChange(next)}
      error={fieldErrorText(t, props.errors.subject)}
      targets={targets}
    />
  );
}

function PlainBodyField({ props, targets }: { props: CustomFieldProps; targets: InsertTargets }) {
  const { t } = useTranslation();
  return (
    <PlaceholderInput
      name="body_plain"
      label={t('templates.fields.body_plain')}
      description={t('templates.hints.bodyPlain')}
      multiline
      value={String(props.value ?? '')}
      onChange={(next) => props.onChange(next)}
      error={fieldErrorText(t, props.errors.body_plain)}
      targets={targets}
    />
  );
}

/** /template/create and /template/update/:id: type (on create), texts with placeholders, attachments. */
export function TemplateFormPage({ params }: PageProps) {
  const { t } = useTranslation();
  const services = useServices();
  const table = useRouteTable();
  const id = params.id ? Number(params.id) : null;
  const calls = useTemplateCalls();
  const { data, error, isLoading, mutate } = useTemplate(id);
  const types = useDictionary('template-types', TEMPLATE_TYPES);
  const item = data?.data ?? null;
  const targets = useMemo(() => new InsertTargets(), []);
  const editor = useRef<RichTextHandle | null>(null);
  const [pending, setPending] = useState<File[]>([]);
  const [testOpen, setTestOpen] = useState(false);
  const typesKey = types.join(',');
  const fields = useMemo(() => templateFields(typesKey.split(','), !item, targets, editor), [typesKey, item, targets]);

  // Files chosen while creating go up once the template exists; if that fails, the template opens for editing.
  const afterSave = async (saved: Template, created: boolean) => {
    if (!created || pending.length === 0) return null;
    try {
      await uploadAttachments(services.client, saved.id, pending);
      setPending([]);
      return null;
    } catch (uploadError) {
      notifyError(`${t('templates.attachments.uploadFailed')} ${translateApiError(t, uploadError)}`);
      return pathOf(table, 'template_update', { id: saved.id });
    }
  };

  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  const previewHref = item ? pathOf(table, 'template_preview', { id: item.id }) : null;
  const body = (
    <LoadState error={id ? error : null} loading={Boolean(id && (isLoading || !item))}>
      {() => (
        <EntityForm<Template, TemplateInput | TemplateUpdate>
          key={item?.id ?? 'new'}
          item={item}
          fields={fields}
          calls={calls}
          initial={templateFormValues}
          validate={validateTemplate}
          onFieldChange={afterTemplateChange}
          widthOf={(values) => templateFormWidth(values.type)}
          toInput={(values) => (item ? templateUpdatePayload(values, item) : templateCreatePayload(values))}
          listRoute="template_list"
          titleKey={id ? 'templates.editTitle' : 'templates.createTitle'}
          itemLabel={(saved) => saved.name}
          onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
          afterSave={afterSave}
          headerActions={
            // A saved template's page opens with these in view (the README: "write a template, open it, and 'Send test
            // message'"); the dialog sends the template as saved.
            item &&
            previewHref && (
              <>
                <Link href={previewHref} asChild>
                  <Button component="a" href={previewHref} variant="default" leftSection={<IconEye size={16} />} data-testid="template-preview">
                    {t('templates.preview.open')}
                  </Button>
                </Link>
                <Button leftSection={<IconSend size={16} />} onClick={() => setTestOpen(true)} data-testid="template-send-test">
                  {t('templates.test.open')}
                </Button>
              </>
            )
          }
        >
          <AttachmentsPanel
            template={item}
            pending={pending}
            onPending={setPending}
            onChanged={(saved) => void mutate({ data: saved }, { revalidate: false })}
          />
        </EntityForm>
      )}
    </LoadState>
  );
  return (
    <>
      <PageBreadcrumbs section="templates" current={crumb} />
      {body}
      {/* No contact chosen: the placeholders show their default values. */}
      {item && testOpen && <TestMessageDialog template={item} contact={null} opened={testOpen} onClose={() => setTestOpen(false)} />}
    </>
  );
}
