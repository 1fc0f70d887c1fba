import { Badge, Loader, PasswordInput, Text, TextInput } from '@mantine/core';
import type { Integration, IntegrationInput, IntegrationType, IntegrationUpdate, SmtpDetails, TwilioDetails } from '@shared/contracts/integration';
import { MESSAGES } from '@shared/messages';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import type { CustomFieldProps, FormFieldConfig, FormValues } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { fieldErrorText } from '../../lib/field-errors';

/** The status badge: active (green) or merging (yellow, with a spinner). */
export function IntegrationStatus({ status }: { status: Integration['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={status === 'merging' ? 'yellow' : 'green'}
      variant="light"
      data-status={status}
      leftSection={status === 'merging' ? <Loader size={10} color="yellow" /> : undefined}
    >
      {t(`integrations.statuses.${status}`)}
    </Badge>
  );
}

/** The connection in one line, never a secret: server:port and user (smtp), or the account SID (twilio). */
export function integrationSummary(integration: Pick<Integration, 'type' | 'details'>): string {
  if (integration.type === 'smtp') {
    const details = integration.details as SmtpDetails;
    return `${details.user ? `${details.user} @ ` : ''}${details.server}:${details.port}`;
  }
  return (integration.details as TwilioDetails).sid ?? '';
}

function TypeLabel({ type }: { type: IntegrationType }) {
  const { t } = useTranslation();
  return <Badge variant="outline">{t(`integrations.types.${type}`)}</Badge>;
}

/** Integration list columns (sorted in the browser: the list is loaded whole). */
export const INTEGRATION_COLUMNS: ListColumn<Integration>[] = [
  { key: 'name', labelKey: 'integrations.fields.name', sortable: true },
  { key: 'type', labelKey: 'integrations.fields.type', sortable: true, render: (row) => <TypeLabel type={row.type} /> },
  { key: 'status', labelKey: 'integrations.fields.status', sortable: true, render: (row) => <IntegrationStatus status={row.status} /> },
  {
    key: 'details',
    labelKey: 'integrations.fields.connection',
    render: (row) => (
      <Text size="sm" c="dimmed" truncate maw={200}>
        {integrationSummary(row)}
      </Text>
    ),
  },
  { key: 'priority', labelKey: 'list.columns.priority', sortable: true, width: 90 },
  { key: 'updated_at', labelKey: 'list.columns.updated_at', sortable: true, render: (row) => <DateTime value={row.updated_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** A write-only secret (password, auth token): typed, never shown back. */
function SecretField({ name, labelKey, required, props }: { name: string; labelKey: string; required?: boolean; props: CustomFieldProps }) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      label={t(labelKey)}
      withAsterisk={required}
      autoComplete="new-password"
      data-testid={`form-field-${name}`}
      name={name}
      value={String(props.value ?? '')}
      error={fieldErrorText(t, props.errors[name])}
      onChange={(event) => props.onChange(event.currentTarget.value)}
    />
  );
}

const isSmtp = (values: FormValues) => values.type === 'smtp';
const isTwilio = (values: FormValues) => values.type === 'twilio';

/**
 * The integration form. The type is chosen on create only; smtp has connection details, twilio an account SID.
 * Secrets (password, token) are asked on create only: afterwards they change on the credentials page.
 */
export function integrationFormFields(types: readonly string[], creating: boolean, webhookUrl: string | null = null): FormFieldConfig[] {
  const fields: FormFieldConfig[] = [
    { name: 'name', labelKey: 'integrations.fields.name', required: true, maxLength: 100, autoFocus: true },
    {
      name: 'type',
      labelKey: 'integrations.fields.type',
      kind: 'select',
      required: true,
      disabled: !creating,
      descriptionKey: creating ? 'integrations.hints.type' : undefined,
      choices: types.map((type) => ({ value: type, labelKey: `integrations.types.${type}` })),
    },
    {
      name: 'details.server',
      labelKey: 'integrations.fields.server',
      required: true,
      maxLength: 253,
      placeholderKey: 'integrations.hints.serverExample',
      visible: isSmtp,
    },
    { name: 'details.port', labelKey: 'integrations.fields.port', kind: 'number', required: true, descriptionKey: 'integrations.hints.port', visible: isSmtp },
    { name: 'details.ssl', labelKey: 'integrations.fields.ssl', kind: 'switch', descriptionKey: 'integrations.hints.ssl', visible: isSmtp },
    { name: 'details.tls', labelKey: 'integrations.fields.tls', kind: 'switch', descriptionKey: 'integrations.hints.tls', visible: isSmtp },
    { name: 'details.domain', labelKey: 'integrations.fields.domain', maxLength: 253, descriptionKey: 'integrations.hints.domain', visible: isSmtp },
    {
      name: 'details.return_path',
      labelKey: 'integrations.fields.return_path',
      kind: 'email',
      maxLength: 254,
      descriptionKey: 'integrations.hints.returnPath',
      visible: isSmtp,
    },
    {
      name: 'details.sendgrid_verification_key',
      labelKey: 'integrations.fields.sendgrid_verification_key',
      kind: 'textarea',
      maxLength: 400,
      descriptionKey: 'integrations.hints.sendgridKey',
      visible: isSmtp,
    },
  ];
  // Where the provider reports to us (a saved integration's): SendGrid's events, or Twilio's incoming messages.
  if (webhookUrl) {
    fields.push({
      name: 'webhook_url',
      labelKey: 'integrations.fields.webhook_url',
      kind: 'custom',
      render: () => <WebhookUrlField url={webhookUrl} />,
    });
  }
  if (creating) {
    fields.push(
      { name: 'user', labelKey: 'integrations.fields.user', required: true, maxLength: 320, visible: isSmtp },
      {
        name: 'password',
        labelKey: 'integrations.fields.password',
        kind: 'custom',
        required: true,
        visible: isSmtp,
        render: (props) => <SecretField name="password" labelKey="integrations.fields.password" required props={props} />,
      },
      { name: 'sid', labelKey: 'integrations.fields.sid', required: true, maxLength: 34, placeholderKey: 'integrations.hints.sidExample', visible: isTwilio },
      {
        name: 'token',
        labelKey: 'integrations.fields.token',
        kind: 'custom',
        required: true,
        visible: isTwilio,
        render: (props) => <SecretField name="token" labelKey="integrations.fields.token" required props={props} />,
      },
    );
  }
  fields.push(
    { name: 'should_merge', labelKey: 'integrations.fields.should_merge', kind: 'switch', descriptionKey: 'integrations.hints.shouldMerge', visible: isTwilio },
    {
      name: 'dkim_signing',
      labelKey: 'integrations.fields.dkim_signing',
      kind: 'select',
      required: true,
      choices: DKIM_CHOICES.map((value) => ({ value, labelKey: `integrations.dkimSigning.${value}` })),
      descriptionKey: 'integrations.hints.dkimSigning',
      visible: isSmtp,
    },
    { name: 'max_rate', labelKey: 'integrations.fields.max_rate', kind: 'number', descriptionKey: 'integrations.hints.maxRate' },
    { name: 'note', labelKey: 'integrations.fields.note', kind: 'textarea', maxLength: 1000 },
  );
  return fields;
}

/** Who signs an SMTP integration's mail with DKIM (dkim_signing true: Relay, with the sender's verified domain's key). */
const DKIM_CHOICES = ['relay', 'provider'] as const;
const dkimSigning = (values: FormValues) => values.dkim_signing !== 'provider';

/** The form's starting values: the integration's (never its secrets), or a new smtp one with should_merge on. */
export function integrationFormValues(item: Integration | null): FormValues {
  const smtp = item?.type === 'smtp' ? (item.details as SmtpDetails) : null;
  return {
    name: item?.name ?? '',
    type: item?.type ?? 'smtp',
    'details.server': smtp?.server ?? '',
    'details.port': smtp?.port ?? (item ? null : 587),
    'details.ssl': smtp?.ssl ?? false,
    'details.tls': smtp?.tls ?? !item,
    'details.domain': smtp?.domain ?? '',
    'details.return_path': smtp?.return_path ?? '',
    'details.sendgrid_verification_key': smtp?.sendgrid_verification_key ?? '',
    user: '',
    password: '',
    sid: '',
    token: '',
    should_merge: item?.should_merge ?? true,
    dkim_signing: item?.dkim_signing === false ? 'provider' : 'relay',
    max_rate: item?.max_rate ?? null,
    note: item?.note ?? '',
  };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** The send limit as the API takes it: a positive number, or null for none. */
const maxRate = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function smtpDetails(values: FormValues) {
  return {
    server: text(values['details.server']).trim(),
    port: typeof values['details.port'] === 'number' ? values['details.port'] : undefined,
    ssl: Boolean(values['details.ssl']),
    tls: Boolean(values['details.tls']),
    domain: text(values['details.domain']).trim() || null,
    return_path: text(values['details.return_path']).trim() || null,
    sendgrid_verification_key: text(values['details.sendgrid_verification_key']).replace(/\s+/g, '') || null,
  };
}

/** POST /integration body: the chosen type's connection and secrets only. */
export function integrationCreatePayload(values: FormValues): IntegrationInput {
  const base = { name: text(values.name), type: values.type as IntegrationType, note: text(values.note) || null, max_rate: maxRate(values.max_rate) };
  if (values.type === 'twilio') return { ...base, sid: text(values.sid).trim(), token: text(values.token), should_merge: Boolean(values.should_merge) };
  return {
    ...base,
    details: smtpDetails(values),
    user: text(values.user).trim(),
    password: text(values.password),
    should_merge: true,
    dkim_signing: dkimSigning(values),
  } as IntegrationInput;
}

/** PUT /integration/{id} body: name and note, plus the smtp connection or the twilio merge choice (the type is fixed). */
export function integrationUpdatePayload(values: FormValues, item: Integration): IntegrationUpdate {
  const base = { name: text(values.name), note: text(values.note) || null, max_rate: maxRate(values.max_rate) };
  if (item.type === 'smtp') return { ...base, details: smtpDetails(values), dkim_signing: dkimSigning(values) } as IntegrationUpdate;
  return { ...base, should_merge: Boolean(values.should_merge) };
}

/** Browser checks before sending: what the server would refuse for sure (required secrets, port). */
export function validateIntegration(values: FormValues, creating: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const need = (path: string, ok: boolean) => {
    if (!ok) errors[path] = [MESSAGES.required];
  };
  need('name', text(values.name).trim() !== '');
  need('type', values.type === 'smtp' || values.type === 'twilio');
  if (values.type === 'smtp') {
    need('details.server', text(values['details.server']).trim() !== '');
    need('details.port', typeof values['details.port'] === 'number');
    if (creating) {
      need('user', text(values.user).trim() !== '');
      need('password', text(values.password) !== '');
    }
  } else if (values.type === 'twilio' && creating) {
    need('sid', text(values.sid).trim() !== '');
    need('token', text(values.token).trim() !== '');
  }
  return errors;
}

/** The credentials form: user and password (smtp) or account SID and auth token (twilio). */
export function credentialsFields(type: IntegrationType): FormFieldConfig[] {
  if (type === 'smtp') {
    return [
      { name: 'user', labelKey: 'integrations.fields.user', required: true, maxLength: 320, autoFocus: true },
      {
        name: 'password',
        labelKey: 'integrations.fields.password',
        kind: 'custom',
        required: true,
        render: (props) => <SecretField name="password" labelKey="integrations.fields.password" required props={props} />,
      },
    ];
  }
  return [
    { name: 'sid', labelKey: 'integrations.fields.sid', required: true, maxLength: 34, autoFocus: true },
    {
      name: 'token',
      labelKey: 'integrations.fields.token',
      kind: 'custom',
      required: true,
      render: (props) => <SecretField name="token" labelKey="integrations.fields.token" required props={props} />,
    },
  ];
}

/** The credentials form starts with the current user or SID (not secret); the secret is typed anew. */
export function credentialsValues(item: Integration): FormValues {
  if (item.type === 'smtp') return { user: (item.details as SmtpDetails).user ?? '', password: '' };
  return { sid: (item.details as TwilioDetails).sid ?? '', token: '' };
}

/** PATCH /integration/{id}/{type}/credentials body. */
export function credentialsPayload(values: FormValues, type: IntegrationType): Record<string, string> {
  return type === 'smtp' ? { user: text(values.user).trim(), password: text(values.password) } : { sid: text(values.sid).trim(), token: text(values.token) };
}

/** Whether an integration can be synced: twilio can (its numbers become senders); smtp has nothing to sync. */
export function canSync(integration: Integration): boolean {
  return integration.type !== 'smtp';
}

/** A saved integration's webhook address, read-only, said for its type (the form hides the other type's fields). */
function WebhookUrlField({ url }: { url: string }) {
  const { t } = useTranslation();
  const sendGrid = url.includes('/hooks/sendgrid/');
  return (
    <TextInput
      label={t('integrations.fields.webhook_url')}
      description={t(sendGrid ? 'integrations.hints.webhookSendGrid' : 'integrations.hints.webhookTwilio')}
      value={url}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      data-testid="integration-webhook-url"
    />
  );
}
