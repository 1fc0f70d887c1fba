import { sendAcceptedSchema, sendBatchAnswerSchema } from '../../shared/contracts/transactional';
import type { z } from 'zod';
import { apiKeyRowSchema, organizationSettingsSchema, sessionRowSchema } from '../../shared/contracts/account';
import { activityLogEntrySchema } from '../../shared/contracts/activity-log';
import { currentUserSchema, organizationInfoSchema } from '../../shared/contracts/auth';
import { blacklistEntrySchema } from '../../shared/contracts/blacklist';
import { broadcastRecipientSchema, broadcastSchema } from '../../shared/contracts/broadcast';
import { campaignSchema } from '../../shared/contracts/campaign';
import { contactSchema } from '../../shared/contracts/contact';
import { domainRowSchema } from '../../shared/contracts/domain';
import { fieldSchema } from '../../shared/contracts/field';
import { importSchema } from '../../shared/contracts/import';
import { integrationSchema } from '../../shared/contracts/integration';
import { messageListItemSchema, messageSchema } from '../../shared/contracts/message';
import { orgKeyRowSchema } from '../../shared/contracts/org-api-key';
import { senderSchema } from '../../shared/contracts/sender';
import { signupViewSchema } from '../../shared/contracts/signup';
import { subscriptionSchema } from '../../shared/contracts/subscription';
import { formSchema } from '../../shared/contracts/form';
import { contactMembershipsSchema, subscriptionMemberSchema } from '../../shared/contracts/membership';
import { erasureSchema } from '../../shared/contracts/privacy';
import { tagSchema } from '../../shared/contracts/tag';
import { templateListItemSchema, templateSchema } from '../../shared/contracts/template';
import {
  endpointSchema,
  endpointTestResultSchema,
  endpointWithSecretSchema,
  webhookDeliverySchema,
  webhookReplayAnswerSchema,
} from '../../shared/contracts/webhook';

// The answer shapes of the OpenAPI document's components, by component name: the same zod objects the TypeScript
// types of src/shared/contracts are inferred from (openapi-document.ts turns them into JSON Schema), so a client
// generated from /api/openapi.json has typed answers. test/worker/api-docs parses real answers with them.

export const ANSWER_SCHEMAS = {
  // The account and sign-up.
  CurrentUser: currentUserSchema,
  Organization: organizationInfoSchema,
  OrganizationSettings: organizationSettingsSchema,
  Session: sessionRowSchema,
  ApiKey: apiKeyRowSchema,
  OrgApiKey: orgKeyRowSchema,
  Signup: signupViewSchema,
  // The entities.
  Tag: tagSchema,
  Subscription: subscriptionSchema,
  Form: formSchema,
  Field: fieldSchema,
  Contact: contactSchema,
  ContactMemberships: contactMembershipsSchema,
  Erasure: erasureSchema,
  SubscriptionMember: subscriptionMemberSchema,
  BlacklistEntry: blacklistEntrySchema,
  ActivityLogEntry: activityLogEntrySchema,
  Import: importSchema,
  Integration: integrationSchema,
  Sender: senderSchema,
  Domain: domainRowSchema,
  WebhookEndpoint: endpointSchema,
  WebhookEndpointWithSecret: endpointWithSecretSchema,
  WebhookTestResult: endpointTestResultSchema,
  WebhookDelivery: webhookDeliverySchema,
  WebhookReplay: webhookReplayAnswerSchema,
  Template: templateSchema,
  TemplateListItem: templateListItemSchema,
  Campaign: campaignSchema,
  Message: messageSchema,
  MessageListItem: messageListItemSchema,
  Broadcast: broadcastSchema,
  BroadcastRecipient: broadcastRecipientSchema,
  // The send API.
  SendAccepted: sendAcceptedSchema,
  SendBatchAnswer: sendBatchAnswerSchema,
} satisfies Record<string, z.ZodType>;

export type AnswerSchema = keyof typeof ANSWER_SCHEMAS;
