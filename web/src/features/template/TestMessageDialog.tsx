import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { Contact } from '@shared/contracts/contact';
import type { Message } from '@shared/contracts/message';
import type { Sender } from '@shared/contracts/sender';
import { senderFitsTemplate, type Template } from '@shared/contracts/template';
import { IconSend } from '@tabler/icons-react';
import type { ListResponse } from '@shared/list';
import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable, useServices } from '../../lib/services-context';
import { SenderDomainWarning } from '../../components/domain/sender-domain';
import { REMOTE_SELECT_PAGE_SIZE, RemoteSelect } from '../../components/form/RemoteSelect';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { sendTestMessage, testMessagePath } from './api';

/** How a contact reads in a select: the name and its first address. */
export function contactLabel(contact: Pick<Contact, 'name' | 'addresses'>): string {
  const first = contact.addresses[0]?.value;
  return first ? `${contact.name} (${first})` : contact.name;
}

/** How a sender reads in a select: 'Name <address>' or the address. */
export function senderLabel(sender: Pick<Sender, 'name' | 'value'>): string {
  return sender.name ? `${sender.name} <${sender.value}>` : sender.value;
}

/** The contact's first address of a type (to fill the recipient in), or ''. */
export function contactAddress(contact: Pick<Contact, 'addresses'> | null, type: Sender['type'] | undefined): string {
  if (!contact || !type) return '';
  return contact.addresses.find((address) => address.type === type)?.value ?? '';
}

/**
 * 'Send test message': a sender that can send this template, the address or phone to send to, and optionally
 * a contact whose data fills the placeholders (without one, they show their `default:` values). Sending queues the
 * message; the dialog shows its id.
 */
export function TestMessageDialog({
  template,
  contact,
  opened,
  onClose,
}: {
  template: Template;
  contact: Contact | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const table = useRouteTable();
  const [sender, setSender] = useState<Sender | null>(null);
  const [to, setTo] = useState('');
  const [chosenContact, setChosenContact] = useState<Contact | null>(contact);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Message | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** A sender chosen (by the user, or for them): the address to send to follows from the contact when empty. */
  const choose = (item: Sender | null) => {
    setSender(item);
    if (item) setTo((current) => current || contactAddress(chosenContact, item.type));
  };
  // The one sender that can send this template is chosen for the user (they can still clear it).
  const senders = useSWR<ListResponse<Sender>>(opened ? ['/sender', { page_size: REMOTE_SELECT_PAGE_SIZE }] : null);
  const preselected = useRef(false);
  useEffect(() => {
    if (preselected.current || !senders.data || senders.data.meta.total > senders.data.items.length) return;
    preselected.current = true;
    const fitting = senders.data.items.filter((item) => senderFitsTemplate(template.type, item.type));
    if (fitting.length !== 1) return;
    setSender(fitting[0]);
    setTo((current) => current || contactAddress(chosenContact, fitting[0].type));
  }, [senders.data, template.type, chosenContact]);
  // An email takes its template's subject: without one, nothing can be sent.
  const noSubject = sender?.type === 'email' && !template.subject?.trim();
  const blocked = !sender
    ? t('templates.test.needSender')
    : noSubject
      ? t('templates.test.noSubject')
      : !to.trim()
        ? t(sender.type === 'phone' ? 'templates.test.needPhone' : 'templates.test.needEmail')
        : null;
  const requestKey = client.keyOf('POST', testMessagePath(template.id));
  const { errors, clear } = useFormErrors(requestKey);

  const send = async () => {
    setSending(true);
    setFailure(null);
    setResult(null);
    try {
      setResult(
        await sendTestMessage(client, template.id, {
          sender_id: sender?.id as number,
          to: to.trim(),
          contact_id: chosenContact?.id ?? null,
        }),
      );
    } catch (error) {
      // Field messages (sender, address, contact, or a body that cannot be rendered) show from the store.
      if (isApiError(error, 'validation_failed') && Object.keys(error.fields).length) return;
      setFailure(isApiError(error, 'validation_failed') ? translateServerMessage(t, error.message) : translateApiError(t, error));
    } finally {
      setSending(false);
    }
  };

  const messageHref = result ? pathOf(table, 'message_view', { id: result.id }) : null;
  const otherErrors = Object.entries(errors)
    .filter(([field]) => !['sender_id', 'to', 'contact_id'].includes(field))
    .flatMap(([, messages]) => messages);

  return (
    <Modal opened={opened} onClose={onClose} title={t('templates.test.title')} size="lg" data-testid="test-message-dialog">
      <Stack
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <Text size="sm" c="dimmed">
          {t('templates.test.intro', { name: template.name })} {t('templates.test.asSaved')}
        </Text>
        <RemoteSelect<Sender>
          path="/sender"
          label={t('templates.test.sender')}
          description={t(template.type === 'text' ? 'templates.test.senderHintText' : 'templates.test.senderHintEmail')}
          required
          value={sender?.id ?? null}
          selected={sender}
          filter={(item) => senderFitsTemplate(template.type, item.type)}
          optionLabel={senderLabel}
          nothingFound={t('templates.test.noSenders')}
          error={fieldErrorText(t, errors.sender_id)}
          testId="test-message-sender"
          onChange={(_id, item) => {
            choose(item);
            clear('sender_id');
          }}
        />
        <SenderDomainWarning sender={sender} />
        <TextInput
          label={t(sender?.type === 'phone' ? 'templates.test.toPhone' : 'templates.test.toEmail')}
          placeholder={sender?.type === 'phone' ? '+15551234567' : 'someone@example.com'}
          withAsterisk
          value={to}
          data-testid="test-message-to"
          error={fieldErrorText(t, errors.to)}
          onChange={(event) => {
            setTo(event.currentTarget.value);
            clear('to');
          }}
        />
        <RemoteSelect<Contact>
          path="/contact"
          label={t('templates.test.contact')}
          description={t('templates.test.contactHint')}
          clearable
          value={chosenContact?.id ?? null}
          selected={chosenContact}
          optionLabel={contactLabel}
          error={fieldErrorText(t, errors.contact_id)}
          testId="test-message-contact"
          onChange={(_id, item) => {
            setChosenContact(item);
            clear('contact_id');
            if (!to && item) setTo(contactAddress(item, sender?.type));
          }}
        />
        {(failure || otherErrors.length > 0) && (
          <Alert color="red" data-testid="test-message-error">
            {failure}
            {otherErrors.map((message) => (
              <div key={message}>{translateServerMessage(t, message)}</div>
            ))}
          </Alert>
        )}
        {result && (
          <Alert
            color="green"
            title={t('templates.test.queuedTitle')}
            data-testid="test-message-result"
            data-message-id={result.id}
            data-status={result.status}
          >
            <Text size="sm">
              {t('templates.test.queued', {
                id: result.id,
                status: t(`templates.test.statuses.${result.status}`, { defaultValue: result.status }),
                to: result.to_address,
              })}
            </Text>
            {messageHref && (
              <Link href={messageHref} asChild>
                <Anchor href={messageHref} size="sm">
                  {t('templates.test.openMessage')}
                </Anchor>
              </Link>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          {blocked && !sending && (
            <Text size="sm" c="dimmed" data-testid="test-message-blocked">
              {blocked}
            </Text>
          )}
          <Button variant="default" onClick={onClose} data-testid="test-message-close">
            {t('templates.test.close')}
          </Button>
          <Button type="submit" leftSection={<IconSend size={16} />} loading={sending} disabled={blocked !== null} data-testid="test-message-send">
            {t('templates.test.send')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
