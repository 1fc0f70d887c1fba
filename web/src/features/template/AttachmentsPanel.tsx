import { ActionIcon, Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ATTACHMENT_RULES, type Template, type TemplateAttachment } from '@shared/contracts/template';
import { IconDownload, IconPaperclip, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { confirmDelete } from '../../components/common/confirm';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { isApiError } from '../../lib/api-error';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { deleteAttachment, downloadAttachment, uploadAttachments } from './attachment-api';
import { ATTACHMENT_ACCEPT, ATTACHMENT_MAX_MB, checkAttachments, formatBytes, type AttachmentProblem } from './attachments';

export interface AttachmentsPanelProps {
  /** The saved template, or null while creating (files then wait until the template is saved). */
  template: Template | null;
  /** Files chosen before the template exists; uploaded right after it is created. */
  pending: File[];
  onPending: (files: File[]) => void;
  /** The template after an upload or delete (new attachment list). */
  onChanged: (template: Template) => void;
}

/**
 * Template attachments: choose several files (checked here first: type and size), upload them to the saved
 * template (or keep them until it is created), list them with download and remove.
 */
export function AttachmentsPanel({ template, pending, onPending, onChanged }: AttachmentsPanelProps) {
  const { t, i18n } = useTranslation();
  const services = useServices();
  const input = useRef<HTMLInputElement>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);

  const show = (list: AttachmentProblem[]) => setProblems(list.map((problem) => t(problem.key, problem.values)));

  const choose = async (chosen: File[]) => {
    const { accepted, problems: found } = checkAttachments(chosen);
    show(found);
    if (!accepted.length) return;
    if (!template) {
      onPending([...pending, ...accepted]);
      return;
    }
    setUploading(true);
    try {
      onChanged(await uploadAttachments(services.client, template.id, accepted));
      notifySuccess(t('templates.attachments.uploaded', { count: accepted.length }));
    } catch (error) {
      const messages = isApiError(error) ? (error.fields.attachments ?? []) : [];
      if (messages.length) setProblems((current) => [...current, ...messages.map((message) => translateServerMessage(t, message))]);
      else notifyError(translateApiError(t, error));
    } finally {
      setUploading(false);
    }
  };

  const remove = (attachment: TemplateAttachment) => {
    if (!template) return;
    confirmDelete({
      title: t('templates.attachments.removeTitle'),
      message: t('templates.attachments.removeMessage', { name: attachment.file_name }),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: async () => {
        try {
          await deleteAttachment(services.client, template.id, attachment.id);
          onChanged({ ...template, attachments: template.attachments.filter((a) => a.id !== attachment.id) });
          notifySuccess(t('templates.attachments.removed'));
        } catch (error) {
          notifyError(translateApiError(t, error));
        }
      },
    });
  };

  const download = async (attachment: TemplateAttachment) => {
    if (!template) return;
    try {
      await downloadAttachment(services.client, template.id, attachment);
    } catch (error) {
      notifyError(translateApiError(t, error));
    }
  };

  const saved = template?.attachments ?? [];
  return (
    <Paper withBorder p="md" data-testid="attachments">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={5}>{t('templates.attachments.title')}</Title>
          <Button
            variant="light"
            leftSection={<IconPaperclip size={16} />}
            loading={uploading}
            onClick={() => input.current?.click()}
            data-testid="attachments-add"
          >
            {t('templates.attachments.add')}
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            accept={ATTACHMENT_ACCEPT}
            data-testid="attachments-input"
            onChange={(event) => {
              const files = [...(event.currentTarget.files ?? [])];
              event.currentTarget.value = '';
              void choose(files);
            }}
          />
        </Group>
        <Text size="xs" c="dimmed">
          {t('templates.attachments.rules', { size: ATTACHMENT_MAX_MB, types: ATTACHMENT_RULES.extensions.join(', ') })}
        </Text>
        {problems.length > 0 && (
          <Alert color="red" data-testid="attachments-error" withCloseButton onClose={() => setProblems([])}>
            {problems.map((problem) => (
              <div key={problem}>{problem}</div>
            ))}
          </Alert>
        )}
        {!template && pending.length > 0 && (
          <Text size="sm" c="dimmed">
            {t('templates.attachments.pendingHint')}
          </Text>
        )}
        {saved.map((attachment) => (
          <Group key={attachment.id} justify="space-between" data-testid="attachment-row" data-name={attachment.file_name} wrap="nowrap">
            <Text size="sm" truncate>
              {attachment.file_name}{' '}
              <Text span c="dimmed" size="xs">
                {formatBytes(attachment.size, i18n.language)}
              </Text>
            </Text>
            <Group gap={4} wrap="nowrap">
              <ActionIcon
                variant="subtle"
                aria-label={t('templates.attachments.download')}
                title={t('templates.attachments.download')}
                data-testid="attachment-download"
                onClick={() => void download(attachment)}
              >
                <IconDownload size={16} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('templates.attachments.remove')}
                title={t('templates.attachments.remove')}
                data-testid="attachment-remove"
                onClick={() => remove(attachment)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          </Group>
        ))}
        {!template &&
          pending.map((file, index) => (
            <Group key={`${file.name}:${index}`} justify="space-between" data-testid="attachment-pending" data-name={file.name} wrap="nowrap">
              <Text size="sm" truncate>
                {file.name}{' '}
                <Text span c="dimmed" size="xs">
                  {formatBytes(file.size, i18n.language)}
                </Text>
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('templates.attachments.remove')}
                title={t('templates.attachments.remove')}
                data-testid="attachment-remove"
                onClick={() => onPending(pending.filter((_, i) => i !== index))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
        {saved.length === 0 && (template || pending.length === 0) && (
          <Text size="sm" c="dimmed" data-testid="attachments-empty">
            {t('templates.attachments.none')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
