import { Alert, Button, Textarea } from '@mantine/core';
import type { ApiKeyRow } from '@shared/contracts/account';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { pathOf, type PageProps } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { notifySuccess } from '../../components/common/notify';
import { LoadState } from '../../components/form/LoadState';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { currentUserAtom } from '../../lib/session-state';
import { useIsDemo } from './account-state';
import { AccountFormCard } from './AccountFormCard';
import { showApiKeyOnce } from './ApiKeyReveal';
import { useAccountCalls, useApiKeys } from './api';

/** The longest note the server accepts. */
const NOTE_MAX = 500;

/** /me/api/create and /me/api/update/:id: the API key form (an optional note); a new key is shown once. */
export function ApiKeyFormPage({ params }: PageProps) {
  const { t } = useTranslation();
  const id = params.id ? Number(params.id) : null;
  const { data, error, isLoading } = useApiKeys();
  const row = id !== null ? (data?.items.find((item) => item.id === id) ?? null) : null;
  const missing = id !== null && Boolean(data) && !row;
  return (
    <AccountLayout>
      {missing || (id !== null && !Number.isInteger(id)) ? (
        <Alert color="red" data-testid="api-key-missing">
          {t('server.notFound')}
        </Alert>
      ) : (
        <LoadState error={id !== null ? error : null} loading={id !== null && (isLoading || !row)}>
          {() => <ApiKeyForm key={row?.id ?? 'new'} row={row} />}
        </LoadState>
      )}
    </AccountLayout>
  );
}

function ApiKeyForm({ row }: { row: ApiKeyRow | null }) {
  const { t, i18n } = useTranslation();
  const table = useRouteTable();
  const [, navigate] = useLocation();
  const user = useAtomValue(currentUserAtom);
  const calls = useAccountCalls();
  const demo = useIsDemo();
  const { mutate } = useApiKeys();
  const [note, setNote] = useState(row?.note ?? '');
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, clear } = useFormErrors(row ? calls.keys.apiKeyUpdate(row.id) : calls.keys.apiKeyCreate());
  const listHref = pathOf(table, 'my_api') ?? '/';

  const submit = async () => {
    setFormError(null);
    setSubmitting(true);
    const value = note.trim() ? note : null;
    try {
      if (row) {
        await calls.updateApiKey(row.id, value);
        notifySuccess(t('form.updated'));
      } else {
        const created = await calls.createApiKey(value);
        if (created.key && user) showApiKeyOnce(i18n, created.key, user);
      }
      await mutate();
      navigate(listHref);
    } catch (error) {
      setFormError(isApiError(error, 'validation_failed') ? t('server.invalidForm') : translateApiError(t, error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountFormCard
      title={t(row ? 'me.api.editTitle' : 'me.api.createTitle')}
      testId="api-key-form"
      onSubmit={submit}
      submitting={submitting}
      disabled={demo}
      error={formError}
      submitLabel={t(row ? 'common.save' : 'common.create')}
      actions={
        <Button variant="default" onClick={() => navigate(listHref)} data-testid="api-key-cancel">
          {t('common.cancel')}
        </Button>
      }
    >
      <Textarea
        label={t('me.api.note')}
        description={t('me.api.noteHint')}
        autosize
        minRows={3}
        maxLength={NOTE_MAX}
        value={note}
        error={fieldErrorText(t, errors.note)}
        data-testid="api-key-note"
        onChange={(event) => {
          setNote(event.currentTarget.value);
          clear('note');
        }}
      />
    </AccountFormCard>
  );
}
