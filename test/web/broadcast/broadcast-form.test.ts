import type { Broadcast } from '@shared/contracts/broadcast';
import { describe, expect, it } from 'vitest';
import { broadcastFormValues, broadcastPayload, previewInput, templateFits, validateBroadcast } from '../../../web/src/features/broadcast/broadcast-form';

const filled = () => ({ ...broadcastFormValues(null), name: ' Launch ', sender_id: '3', template_id: '5', subscription_id: '7', tags: ['2'] });

describe('the broadcast form', () => {
  it('sends the spec 7 body: delayed_at null when immediate, subscription_id omitted when do_not_unsubscribe', () => {
    expect(broadcastPayload(filled())).toEqual({
      name: 'Launch',
      alias: null,
      note: null,
      type: 'email',
      template_id: 5,
      sender_id: 3,
      sleep: 0,
      delayed_at: null,
      do_not_unsubscribe: false,
      subscription_id: 7,
      contacts: { filter: { skip_unsubscribed: true, tags: [2] } },
    });
    const transactional = broadcastPayload({ ...filled(), do_not_unsubscribe: true, immediate: false, delayed_at: '2030-05-01T09:30' });
    expect(transactional).not.toHaveProperty('subscription_id');
    expect(transactional.delayed_at).toBe(new Date('2030-05-01T09:30').toISOString());
  });

  it('checks what it can before sending, in the server words', () => {
    expect(validateBroadcast(broadcastFormValues(null))).toEqual({
      name: ['This field is required'],
      sender_id: ['This field is required'],
      template_id: ['This field is required'],
      subscription_id: ['This field is required'],
    });
    expect(validateBroadcast({ ...filled(), do_not_unsubscribe: true, subscription_id: null })).toEqual({});
    const past = validateBroadcast({ ...filled(), immediate: false, delayed_at: '2020-01-01T10:00' });
    expect(past).toEqual({ delayed_at: ['The scheduled time cannot be in the past'] });
  });

  it('duplicates a broadcast into the form (create?source=)', () => {
    const source = {
      name: 'Spring',
      note: 'n',
      type: 'phone',
      sender_id: 4,
      template_id: 9,
      sleep: 5,
      do_not_unsubscribe: true,
      subscription_id: null,
      skip_unsubscribed: false,
      contacts: { filter: { tags: [1, 2], ids: [7], address: 'x.com', attributes: [{ field_id: 3, value: 'gold' }] }, search: 'ann' },
    } as unknown as Broadcast;
    expect(broadcastFormValues(source, ' (copy)')).toMatchObject({
      name: 'Spring (copy)',
      type: 'phone',
      sender_id: '4',
      template_id: '9',
      sleep: 5,
      immediate: true,
      do_not_unsubscribe: true,
      skip_unsubscribed: false,
      tags: ['1', '2'],
      ids: ['7'],
      address: 'x.com',
      attribute_field: '3',
      attribute_value: 'gold',
      search: 'ann',
    });
  });

  it('previews with the subscription only when the broadcast has one, and pairs templates by channel', () => {
    expect(previewInput(filled())).toEqual({ type: 'email', subscription_id: 7, contacts: { filter: { skip_unsubscribed: true, tags: [2] } } });
    expect(previewInput({ ...filled(), do_not_unsubscribe: true }).subscription_id).toBeNull();
    expect([
      templateFits('email', 'html'),
      templateFits('email', 'email'),
      templateFits('email', 'text'),
      templateFits('phone', 'text'),
      templateFits('phone', 'html'),
    ]).toEqual([true, true, false, true, false]);
  });

  it('sends the tracking switches only when the user set them, and never for SMS', () => {
    expect(broadcastPayload(filled())).not.toHaveProperty('track_opens');
    expect(broadcastPayload({ ...filled(), track_opens: false, track_clicks: true })).toMatchObject({ track_opens: false, track_clicks: true });
    const sms = broadcastPayload({ ...filled(), type: 'phone', track_opens: false, track_clicks: false });
    expect(sms).not.toHaveProperty('track_opens');
    expect(sms).not.toHaveProperty('track_clicks');
    // A copy keeps the source's choice.
    expect(broadcastFormValues({ track_opens: false, track_clicks: true, contacts: { filter: {} } } as unknown as Broadcast)).toMatchObject({
      track_opens: false,
      track_clicks: true,
    });
  });
});
