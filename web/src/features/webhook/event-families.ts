import { BROADCAST_EVENT_TYPES, CONTACT_EVENT_TYPES, MESSAGE_EVENT_TYPES, SMS_EVENT_TYPES } from '@shared/contracts/events';

/** The form's event checkboxes, grouped by family (the same lists the stream is built from). */
export const EVENT_FAMILIES = [
  { key: 'messages', types: MESSAGE_EVENT_TYPES },
  { key: 'contacts', types: CONTACT_EVENT_TYPES },
  { key: 'sms', types: SMS_EVENT_TYPES },
  { key: 'broadcasts', types: BROADCAST_EVENT_TYPES },
] as const;
