import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { DomainRow } from '@shared/contracts/domain';
import { MESSAGES } from '@shared/messages';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { useDomainCalls } from './api';

/** "Add domain": the domain name; the API's 422 messages (not a domain, taken, already added) show under the field. */
export function DomainAddModal({ opened, onClose, onAdded }: { opened: boolean; onClose: () => void; onAdded: (row: DomainRow) => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('domains.addTitle')} data-testid="domain-add-modal">
      {opened && <DomainAddForm onCancel={onClose} onAdded={onAdded} />}
    </Modal>
  );
}

function DomainAddForm({ onCancel, onAdded }: { onCancel: () => void; onAdded: (row: DomainRow) => void }) {
  const { t } = useTranslation();
  const calls = useDomainCalls();
  const { errors, clear, set } = useFormErrors(calls.createKey());
  const [domain, setDomain] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async () => {
    setFormError(null);
    if (!domain.trim()) {
      set({ domain: [MESSAGES.required] });
      return;
    }
    setSubmitting(true);
    try {
      onAdded(await calls.create({ domain: domain.trim() }));
    } catch (error) {
      // Field messages show under the input from the store; anything else above the form.
      if (!(isApiError(error, 'validation_failed') && Object.keys(error.fields).length)) setFormError(translateApiError(t, error));
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
          <Alert color="red" data-testid="domain-add-error">
            {formError}
          </Alert>
        )}
        <TextInput
          label={t('domains.fields.domain')}
          description={t('domains.hints.domain')}
          placeholder="mail.example.com"
          withAsterisk
          maxLength={253}
          value={domain}
          error={fieldErrorText(t, errors.domain)}
          data-autofocus
          data-testid="domain-add-name"
          onChange={(event) => {
            setDomain(event.currentTarget.value);
            clear('domain');
          }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} data-testid="domain-add-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={submitting} data-testid="domain-add-submit">
            {t('domains.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
