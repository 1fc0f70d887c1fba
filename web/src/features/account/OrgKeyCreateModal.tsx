import { ActionIcon, Alert, Button, Code, CopyButton, Group, Modal, NativeSelect, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { MESSAGES } from '@shared/messages';
import { ORG_KEY_SCOPES, TEST_KEY_SCOPES, type OrgKeyRow, type OrgKeyScope } from '@shared/contracts/org-api-key';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { currentUserAtom } from '../../lib/session-state';
import { useAccountCalls } from './api';

/** The longest key name the server accepts. */
export const ORG_KEY_NAME_MAX = 100;

/** The scope a test key falls back to when it had one a test key may not have. */
const scopeFor = (scope: OrgKeyScope, test: boolean): OrgKeyScope => (test && !TEST_KEY_SCOPES.includes(scope) ? 'send' : scope);

/**
 * "Create key": a name, a scope (each with its one-line meaning) and the test-mode switch; once made, the same dialog
 * shows the key itself, once, with a copy button and the warning that it will not be shown again. `onCreated` runs
 * as soon as the key exists (the list behind refreshes); closing the dialog forgets the key.
 */
export function OrgKeyCreateModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (row: OrgKeyRow) => void }) {
  const { t } = useTranslation();
  const [created, setCreated] = useState<OrgKeyRow | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? t('orgKeys.createdTitle') : t('orgKeys.createTitle')}
      size="lg"
      closeOnClickOutside={!created}
      data-testid="org-key-modal"
    >
      {created?.key ? (
        <OrgKeySecret row={created} secret={created.key} onDone={close} />
      ) : (
        <OrgKeyForm
          onCancel={close}
          onCreated={(row) => {
            setCreated(row);
            onCreated(row);
          }}
        />
      )}
    </Modal>
  );
}

function OrgKeyForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (row: OrgKeyRow) => void }) {
  const { t } = useTranslation();
  const calls = useAccountCalls();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<OrgKeyScope>('send');
  const [test, setTest] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, clear, set } = useFormErrors(calls.keys.orgKeyCreate());

  const submit = async () => {
    setFormError(null);
    if (!name.trim()) {
      set({ name: [MESSAGES.required] });
      return;
    }
    setSubmitting(true);
    try {
      onCreated(await calls.createOrgKey({ name: name.trim(), scope, test }));
    } catch (error) {
      setFormError(isApiError(error, 'validation_failed') ? t('server.invalidForm') : translateApiError(t, error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack>
        {formError && (
          <Alert color="red" data-testid="org-key-form-error">
            {formError}
          </Alert>
        )}
        <TextInput
          label={t('orgKeys.name')}
          description={t('orgKeys.nameHint')}
          withAsterisk
          maxLength={ORG_KEY_NAME_MAX}
          value={name}
          error={fieldErrorText(t, errors.name)}
          data-autofocus
          data-testid="org-key-name"
          onChange={(event) => {
            setName(event.currentTarget.value);
            clear('name');
          }}
        />
        <NativeSelect
          label={t('orgKeys.scope')}
          description={t(`orgKeys.scopeHints.${scope}`)}
          value={scope}
          error={fieldErrorText(t, errors.scope)}
          data-testid="org-key-scope"
          data={ORG_KEY_SCOPES.map((value) => ({
            value,
            // The name only: the chosen scope's meaning is the description above (with it, a phone cut the option).
            label: t(`orgKeys.scopes.${value}`),
            disabled: test && !TEST_KEY_SCOPES.includes(value),
          }))}
          onChange={(event) => {
            setScope(event.currentTarget.value as OrgKeyScope);
            clear('scope');
          }}
        />
        <Switch
          label={t('orgKeys.testMode')}
          description={t('orgKeys.testModeHint')}
          checked={test}
          data-testid="org-key-test"
          onChange={(event) => {
            const next = event.currentTarget.checked;
            setTest(next);
            setScope((current) => scopeFor(current, next));
            clear('scope');
          }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} data-testid="org-key-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={submitting} data-testid="org-key-submit">
            {t('orgKeys.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The new key, shown this once: the warning, the key with a copy button, and how to send it. */
function OrgKeySecret({ row, secret, onDone }: { row: OrgKeyRow; secret: string; onDone: () => void }) {
  const { t } = useTranslation();
  const domain = useAtomValue(currentUserAtom)?.organization.domain;
  return (
    <Stack data-testid="org-key-reveal">
      <Alert color="yellow" data-testid="org-key-once">
        {t('orgKeys.shownOnce')}
      </Alert>
      <Text size="sm">{t('orgKeys.createdFor', { name: row.name })}</Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="org-key-secret">
          {secret}
        </Code>
        <CopyButton value={secret} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('orgKeys.copied') : t('orgKeys.copy')} withArrow>
              <ActionIcon color={copied ? 'teal' : 'gray'} variant="subtle" onClick={copy} aria-label={t('orgKeys.copy')} data-testid="org-key-copy">
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        {t('orgKeys.usage')}
      </Text>
      <Code
        block
        style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
      >{`Authorization: Bearer ${row.prefix}…${domain ? `\nX-ORG: ${domain}` : ''}`}</Code>
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid="org-key-done">
          {t('orgKeys.done')}
        </Button>
      </Group>
    </Stack>
  );
}
