import { Alert, Button, Center, Code, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { Contact } from '@shared/contracts/contact';
import type { TemplatePreview } from '@shared/contracts/template';
import { IconPencil, IconRefresh, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SandboxedHtml } from '../../components/common/SandboxedHtml';
import useSWR from 'swr';
import { Link } from 'wouter';
import { pathOf, type PageProps } from '../../lib/route-table';
import { useRouteTable, useServices } from '../../lib/services-context';
import { RemoteSelect } from '../../components/form/RemoteSelect';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { isApiError } from '../../lib/api-error';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { previewTemplate, useTemplate } from './api';
import { TemplateTypeBadge } from './template-config';
import { contactLabel, TestMessageDialog } from './TestMessageDialog';
import type { ReactNode } from 'react';

/** A failed render in words: 'subject generation failed' / 'body generation failed' with the template's error. */
export function previewErrorText(t: (key: string, options?: Record<string, unknown>) => string, error: unknown): string {
  if (isApiError(error) && /generation failed: /.test(error.message)) return translateServerMessage(t, error.message);
  if (isApiError(error)) {
    const first = Object.values(error.fields).flat()[0];
    if (first) return translateServerMessage(t, first);
  }
  return translateApiError(t, error);
}

/** The rendered message: subject, body (HTML in a sandboxed frame: no scripts, no same-origin) and plain text. */
function RenderedPreview({ preview, type }: { preview: TemplatePreview; type: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="preview-result">
      {type === 'email' && (
        <div>
          <Text size="xs" c="dimmed">
            {t('templates.fields.subject')}
          </Text>
          <Text fw={600} data-testid="preview-subject">
            {preview.subject ?? ''}
          </Text>
        </div>
      )}
      <div>
        <Text size="xs" c="dimmed">
          {t('templates.fields.body')}
        </Text>
        {type === 'text' ? (
          <Code block data-testid="preview-text">
            {preview.body}
          </Code>
        ) : (
          <SandboxedHtml title={t('templates.preview.frameTitle')} html={preview.body} testId="preview-body" />
        )}
      </div>
      {type !== 'text' && (
        <div>
          <Text size="xs" c="dimmed">
            {t('templates.fields.body_plain')}
          </Text>
          {preview.body_plain ? (
            <Code block data-testid="preview-plain">
              {preview.body_plain}
            </Code>
          ) : (
            <Text size="sm" c="dimmed" data-testid="preview-plain-derived">
              {t('templates.preview.plainDerived')}
            </Text>
          )}
        </div>
      )}
    </Stack>
  );
}

/** /template/preview/:id: the template rendered for a chosen contact (or with its placeholders' defaults), and 'Send test message'. */
export function TemplatePreviewPage({ params }: PageProps) {
  const { t } = useTranslation();
  const { client } = useServices();
  const table = useRouteTable();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const template = useTemplate(valid ? id : null);
  const item = template.data?.data ?? null;
  // No contact until the user picks one: the placeholders show their `default:` values (the template's own
  // fallbacks), as a test message sent to nobody in particular does, rather than some contact's data.
  const [contact, setContact] = useState<Contact | null>(null);
  const [testOpen, setTestOpen] = useState(false);
  const preview = useSWR<TemplatePreview>(
    item ? ['template-preview', item.id, contact?.id ?? null, item.updated_at] : null,
    () => previewTemplate(client, id, contact?.id ?? null),
    {
      revalidateOnFocus: false,
      shouldRetryOnError: false,
    },
  );
  const editHref = item ? pathOf(table, 'template_update', { id: item.id }) : null;

  let body: ReactNode;
  if (!valid || template.error) body = <Alert color="red">{translateApiError(t, template.error)}</Alert>;
  else if (!item)
    body = (
      <Center p="xl">
        <Loader />
      </Center>
    );
  else
    body = (
      <Paper withBorder p="lg" maw={1200} data-testid="template-preview-page">
        <Stack>
          <Group justify="space-between">
            <Group gap="sm">
              <Title order={3}>{t('templates.preview.title', { name: item.name })}</Title>
              <TemplateTypeBadge type={item.type} />
            </Group>
            <Group gap="xs">
              {editHref && (
                <Link href={editHref} asChild>
                  <Button component="a" href={editHref} variant="default" leftSection={<IconPencil size={16} />} data-testid="preview-edit">
                    {t('common.edit')}
                  </Button>
                </Link>
              )}
              <Button leftSection={<IconSend size={16} />} onClick={() => setTestOpen(true)} data-testid="preview-send-test">
                {t('templates.test.open')}
              </Button>
            </Group>
          </Group>
          <Group align="flex-end" gap="sm">
            <div style={{ flex: 1, maxWidth: 520 }}>
              <RemoteSelect<Contact>
                path="/contact"
                label={t('templates.preview.contact')}
                description={t('templates.preview.contactHint')}
                placeholder={t('templates.preview.noContact')}
                clearable
                value={contact?.id ?? null}
                selected={contact}
                optionLabel={contactLabel}
                testId="preview-contact"
                onChange={(_id, chosen) => setContact(chosen)}
              />
            </div>
            <Button
              variant="light"
              leftSection={<IconRefresh size={16} />}
              loading={preview.isValidating}
              onClick={() => void preview.mutate()}
              data-testid="preview-refresh"
            >
              {t('templates.preview.refresh')}
            </Button>
          </Group>
          {preview.error ? (
            <Alert color="red" title={t('templates.preview.failed')} data-testid="preview-error">
              {previewErrorText(t, preview.error)}
            </Alert>
          ) : preview.data ? (
            <RenderedPreview preview={preview.data} type={item.type} />
          ) : (
            <Center p="xl">
              <Loader />
            </Center>
          )}
        </Stack>
        {testOpen && <TestMessageDialog template={item} contact={contact} opened={testOpen} onClose={() => setTestOpen(false)} />}
      </Paper>
    );
  return (
    <>
      <PageBreadcrumbs
        section="templates"
        current={{ labelKey: 'templates.preview.crumb', text: item ? `${item.name} · ${t('templates.preview.crumb')}` : undefined }}
      />
      {body}
    </>
  );
}
