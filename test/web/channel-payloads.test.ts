import { ADDRESS_MESSAGES } from '@shared/address';
import type { Integration } from '@shared/contracts/integration';
import { INTEGRATION_MESSAGES } from '@shared/contracts/integration';
import type { Sender } from '@shared/contracts/sender';
import { TEMPLATE_MESSAGES } from '@shared/contracts/template';
import { MESSAGES } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../web/src/app/i18n';
import { LOCALES } from './all-locales';
import { MERGING_POLL_MS, mergingPollInterval } from '../../web/src/features/integration/api';
import {
  canSync,
  credentialsPayload,
  credentialsValues,
  integrationCreatePayload,
  integrationFormValues,
  integrationSummary,
  integrationUpdatePayload,
  validateIntegration,
} from '../../web/src/features/integration/integration-config';
import {
  adjustSenderValues,
  integrationsForType,
  senderFormFields,
  senderCreatePayload,
  senderFormValues,
  senderUpdatePayload,
  validateSender,
} from '../../web/src/features/sender/sender-config';
import { SMTP, TWILIO } from './fake-channels-api';
import { translateServerMessage } from '../../web/src/lib/server-messages';

const smtp: Integration = { ...SMTP, name: 'Mail' };
const twilio: Integration = { ...TWILIO, name: 'SMS' };

describe('integration form', () => {
  it('creates smtp with its connection, user and password; nothing of twilio', () => {
    const values = {
      ...integrationFormValues(null),
      name: 'Mail',
      'details.server': ' smtp.example.com ',
      'details.port': 2525,
      'details.tls': false,
      user: ' mailer ',
      password: ' p w ',
      sid: 'ignored',
      note: '',
    };
    expect(integrationCreatePayload(values)).toEqual({
      name: 'Mail',
      type: 'smtp',
      note: null,
      details: { server: 'smtp.example.com', port: 2525, ssl: false, tls: false, domain: null, return_path: null, sendgrid_verification_key: null },
      user: 'mailer',
      password: ' p w ', // a password is taken exactly as typed
      should_merge: true,
      dkim_signing: true,
      max_rate: null,
    });
  });

  it('sends who signs with DKIM for smtp: Relay by default, false for "My provider signs"', () => {
    const values = { ...integrationFormValues(null), name: 'SG', 'details.server': 'smtp.sendgrid.net', user: 'apikey', password: 'p' };
    expect(integrationFormValues(null).dkim_signing).toBe('relay');
    expect(integrationCreatePayload({ ...values, dkim_signing: 'provider' })).toMatchObject({ dkim_signing: false });
    expect(integrationFormValues({ ...smtp, dkim_signing: false }).dkim_signing).toBe('provider');
    expect(integrationUpdatePayload({ ...integrationFormValues({ ...smtp, dkim_signing: false }) }, smtp)).toMatchObject({ dkim_signing: false });
    expect(integrationUpdatePayload({ ...integrationFormValues(smtp), dkim_signing: 'relay' }, smtp)).toMatchObject({ dkim_signing: true });
    expect(integrationUpdatePayload(integrationFormValues(twilio), twilio)).not.toHaveProperty('dkim_signing');
  });

  it('sends the send limit as a number, and an empty one as null (no limit)', () => {
    const values = { ...integrationFormValues(null), name: 'SES', 'details.server': 'email-smtp.example.com', user: 'u', password: 'p', max_rate: 14 };
    expect(integrationCreatePayload(values)).toMatchObject({ max_rate: 14 });
    expect(integrationUpdatePayload({ ...integrationFormValues(smtp), max_rate: null }, smtp)).toMatchObject({ max_rate: null });
    expect(integrationFormValues({ ...smtp, max_rate: 2.5 }).max_rate).toBe(2.5);
  });

  it('creates twilio with sid, token and the merge choice; no smtp details', () => {
    const values = {
      ...integrationFormValues(null),
      type: 'twilio',
      name: 'SMS',
      sid: ' AC0123456789abcdef0123456789abcdef ',
      token: 'tok',
      should_merge: false,
      'details.server': 'x',
    };
    expect(integrationCreatePayload(values)).toEqual({
      name: 'SMS',
      type: 'twilio',
      note: null,
      max_rate: null,
      sid: 'AC0123456789abcdef0123456789abcdef',
      token: 'tok',
      should_merge: false,
    });
  });

  it('updates without type or secrets: smtp sends its details, twilio its merge choice', () => {
    const smtpBody = integrationUpdatePayload({ ...integrationFormValues(smtp), 'details.port': 465, 'details.ssl': true }, smtp);
    expect(smtpBody).toEqual({
      name: 'Mail',
      note: null,
      max_rate: null,
      details: { server: 'smtp.example.com', port: 465, ssl: true, tls: true, domain: null, return_path: null, sendgrid_verification_key: null },
      dkim_signing: true,
    });
    expect(integrationUpdatePayload({ ...integrationFormValues(twilio), should_merge: false }, twilio)).toEqual({
      name: 'SMS',
      note: null,
      max_rate: null,
      should_merge: false,
    });
  });

  it('never puts a secret into the form values of a saved integration', () => {
    expect(integrationFormValues(smtp)).toMatchObject({ password: '', token: '', user: '' });
    expect(credentialsValues(smtp)).toEqual({ user: 'mailer', password: '' });
    expect(credentialsValues(twilio)).toEqual({ sid: 'AC0123456789abcdef0123456789abcdef', token: '' });
  });

  it('requires what the type needs, secrets only on create', () => {
    const empty = { ...integrationFormValues(null), 'details.port': null };
    expect(validateIntegration(empty, true)).toEqual({
      name: [MESSAGES.required],
      'details.server': [MESSAGES.required],
      'details.port': [MESSAGES.required],
      user: [MESSAGES.required],
      password: [MESSAGES.required],
    });
    expect(validateIntegration({ ...integrationFormValues(null), type: 'twilio', name: 'x' }, true)).toEqual({
      sid: [MESSAGES.required],
      token: [MESSAGES.required],
    });
    expect(validateIntegration(integrationFormValues(smtp), false)).toEqual({});
  });

  it('sends credentials by type', () => {
    expect(credentialsPayload({ user: ' u ', password: 'p' }, 'smtp')).toEqual({ user: 'u', password: 'p' });
    expect(credentialsPayload({ sid: ' AC1 ', token: 't' }, 'twilio')).toEqual({ sid: 'AC1', token: 't' });
  });

  it('syncs twilio only, summarises the connection without secrets, and polls the list only while a row is merging', () => {
    expect([canSync(smtp), canSync(twilio)]).toEqual([false, true]);
    expect(integrationSummary(smtp)).toBe('mailer @ smtp.example.com:587');
    expect(mergingPollInterval([smtp, { ...twilio, status: 'merging' }])).toBe(MERGING_POLL_MS);
    expect(mergingPollInterval([smtp, twilio])).toBe(0);
    expect(mergingPollInterval(undefined)).toBe(0);
  });
});

describe('sender form', () => {
  const integrations = [smtp, twilio];

  it('offers the integrations of the chosen type', () => {
    expect(integrationsForType(integrations, 'email').map((i) => i.id)).toEqual([1]);
    expect(integrationsForType(integrations, 'phone').map((i) => i.id)).toEqual([2]);
    expect(integrationsForType(integrations, '').map((i) => i.id)).toEqual([1, 2]);
  });

  it("offers only the chosen type's integrations, never changes the type, and drops an integration of the other kind on a type change", () => {
    const start = senderFormValues(null);
    const field = senderFormFields(['email', 'phone'], integrations, null).find((f) => f.name === 'integration_id')!;
    const offered = (type: string) => field.choicesFor!({ ...start, type }).map((c) => c.value);
    expect(offered('email')).toEqual(integrations.filter((i) => i.type === 'smtp').map((i) => String(i.id)));
    expect(offered('phone')).toEqual(integrations.filter((i) => i.type === 'twilio').map((i) => String(i.id)));
    expect(adjustSenderValues('integration_id', { ...start, integration_id: '2' }, integrations)).toMatchObject({ type: 'email', integration_id: '2' });
    expect(adjustSenderValues('type', { ...start, integration_id: '1', type: 'phone' }, integrations)).toMatchObject({ type: 'phone', integration_id: '' });
    expect(adjustSenderValues('type', { ...start, integration_id: '1', type: 'email' }, integrations)).toMatchObject({ integration_id: '1' });
  });

  it('checks the address by type in the browser', () => {
    expect(validateSender({ type: 'email', integration_id: '1', value: 'nope' }, true)).toEqual({ value: [MESSAGES.invalidEmail] });
    expect(validateSender({ type: 'phone', integration_id: '2', value: '5551234' }, true)).toEqual({ value: [ADDRESS_MESSAGES.invalidPhone] });
    expect(validateSender({ type: 'phone', integration_id: '2', value: '+15551234567' }, true)).toEqual({});
    expect(validateSender({ type: 'email', integration_id: '', value: '' }, true)).toEqual({ integration_id: [MESSAGES.required], value: [MESSAGES.required] });
  });

  it('sends the display name only for email senders, and no integration or type on update', () => {
    expect(senderCreatePayload({ type: 'email', integration_id: '1', value: ' news@acme.test ', name: ' News ', note: '' })).toEqual({
      integration_id: 1,
      type: 'email',
      value: 'news@acme.test',
      name: 'News',
      note: null,
    });
    expect(senderCreatePayload({ type: 'phone', integration_id: '2', value: '+15551234567', name: 'ignored', note: 'n' })).toMatchObject({
      name: null,
      note: 'n',
    });
    const phone = { id: 5, type: 'phone' } as Sender;
    expect(senderUpdatePayload({ value: '+15551234567', name: 'x', note: '' }, phone)).toEqual({ value: '+15551234567', name: null, note: null });
  });
});

describe('channel messages from the server', () => {
  const ru = createI18n('ru', LOCALES);
  const t = ru.t.bind(ru) as (key: string, options?: Record<string, unknown>) => string;

  it('translates the contract texts and the render failures with their error', () => {
    expect(translateServerMessage(t, INTEGRATION_MESSAGES.port)).toBe('Порт должен быть целым числом от 1 до 65535');
    expect(translateServerMessage(t, TEMPLATE_MESSAGES.subjectFailed('unknown filter "x"'))).toBe('Не удалось сформировать тему: unknown filter "x"');
    expect(translateServerMessage(t, TEMPLATE_MESSAGES.bodyFailed('line 2: tag "if" not closed'))).toBe(
      'Не удалось сформировать текст письма: line 2: tag "if" not closed',
    );
    expect(translateServerMessage(t, MESSAGES.required)).toBe(ru.t('server.required'));
    expect(translateServerMessage(t, 'Something new')).toBe('Something new');
  });
});
