// What the rest of the worker imports to send: the factory, the interface, and the per-integration helpers.
export type { OutgoingAttachment, OutgoingMessage, SendResult, Transport } from './types';
export {
  openTransport,
  syncPhoneNumbers,
  testIntegrationConnection,
  smtpOptionsOf,
  twilioAccountOf,
  TransportConfigError,
  type TransportEnv,
  type TransportIntegration,
  type TransportOptions,
} from './open';
export type { ConnectionTestResult } from '../smtp/test-connection';
export { testSmtpConnection } from '../smtp/test-connection';
export { listIncomingPhoneNumbers, TwilioError, type IncomingPhoneNumber } from '../sms/twilio';
export { messageIdFor, parseMessageId } from '../mime/message-id';
