// What the rest of the worker imports to send: the factory and the per-integration helpers.
export { openTransport, syncPhoneNumbers, testIntegrationConnection, type TransportEnv, type TransportIntegration } from './open';
