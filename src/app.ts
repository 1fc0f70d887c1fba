import { Hono } from 'hono';
import { timing } from 'hono/timing';
import type { AppEnv } from './context';
import { handleError, handleNotFound } from './middleware/errors';
import { requireAuth } from './middleware/auth';
import { requestContext } from './middleware/request-context';
import { securityHeaders, withNonDocumentSecurityHeaders } from './middleware/security-headers';
import { trackingRoutes } from './modules/tracking/routes';
import { broadcastReportRoutes, messageReportRoutes } from './modules/tracking/report-routes';
import { unsubscribePublicRoutes } from './modules/unsubscribe/public-routes';
import { oneClickRoutes } from './modules/unsubscribe/one-click';
import { unsubscribePageRoutes } from './modules/unsubscribe/page/routes';
import { twilioHookRoutes } from './modules/sms-hooks/routes';
import { sendGridHookRoutes } from './modules/bounce/sendgrid-routes';
import { countRequests } from './modules/stats/requests';
import { dashboardRoutes } from './modules/stats/dashboard-routes';
import { contactOptOutRoutes } from './modules/unsubscribe/contact-routes';
import { contactMembershipRoutes } from './modules/membership/contact-routes';
import { contactPrivacyRoutes } from './modules/privacy/routes';
import { subscriptionMemberRoutes } from './modules/membership/member-list-routes';
import { tenant } from './middleware/tenant';
import { initRoutes, internalUserRoutes } from './modules/auth/init-routes';
import { internalAuthRoutes } from './modules/auth/routes';
import { clientLogRoutes } from './modules/client-log/routes';
import { consoleRoutes } from './modules/console/routes';
import { tagRoutes } from './modules/tag/routes';
import { importRoutes } from './modules/import/routes';
import { liveRoutes } from './modules/live/routes';
import { fieldRoutes } from './modules/field/routes';
import { contactRoutes } from './modules/contact/routes';
import { subscriptionRoutes } from './modules/subscription/routes';
import { blacklistRoutes } from './modules/blacklist/routes';
import { activityLogRoutes } from './modules/activity-log/routes';
import { dictionaryRoutes } from './modules/dictionary/routes';
import { integrationRoutes } from './modules/integration/routes';
import { senderRoutes } from './modules/sender/routes';
import { templateRoutes } from './modules/template/routes';
import { campaignRoutes } from './modules/campaign/routes';
import { messageRoutes } from './modules/message/routes';
import { broadcastRoutes } from './modules/broadcast/routes';
import { demoGuard } from './middleware/demo-guard';
import { signupRoutes } from './modules/signup/routes';
import { preRegistrationRoutes } from './modules/signup/pre-registration-routes';
import { signCompleteRoutes } from './modules/signup/sign-complete-routes';
import { operatorRoutes } from './modules/operator/routes';
import { accountUserRoutes } from './modules/account/internal-user-routes';
import { organizationRoutes } from './modules/account/organization-routes';
import { sessionRoutes } from './modules/account/session-routes';
import { apiKeyRoutes } from './modules/account/api-key-routes';
import { orgApiKeyRoutes } from './modules/api-key/routes';
import { socialRoutes } from './modules/social/routes';
import { socialCallbackRoutes } from './modules/social/callback-routes';
import { demoRoutes } from './modules/demo/routes';
import { apiDocsRoutes } from './modules/api-docs/routes';
import { demoOperatorRoutes } from './modules/demo/operator-routes';
import { messageArchiveRoutes } from './modules/retention/routes';
import { healthRoutes } from './modules/health/routes';
import { sendRoutes } from './modules/transactional/routes';
import { domainRoutes } from './modules/domain/routes';
import { webhookRoutes } from './modules/webhook/routes';
import { eventRoutes } from './modules/event/routes';
import { formRoutes } from './modules/form/routes';
import { formPublicRoutes } from './modules/form/public/routes';
import { linkRequestRoutes } from './modules/form/public/link-request';

/** Entity collections that need a signed-in user; each gets the shared contract from crudRoutes. */
const entities = {
  tag: tagRoutes,
  import: importRoutes,
  live: liveRoutes,
  field: fieldRoutes,
  contact: contactRoutes,
  subscription: subscriptionRoutes,
  // Hosted sign-up forms (src/modules/form; the public page is src/modules/form/public).
  form: formRoutes,
  blacklist: blacklistRoutes,
  'activity-log': activityLogRoutes,
  dictionary: dictionaryRoutes,
  integration: integrationRoutes,
  sender: senderRoutes,
  // Sending domains: records to publish, DNS checks, DKIM keys (src/modules/domain).
  domain: domainRoutes,
  // Webhook endpoints: where the organisation's events are delivered, and their deliveries (src/modules/webhook).
  webhooks: webhookRoutes,
  template: templateRoutes,
  campaign: campaignRoutes,
  broadcast: broadcastRoutes,
  message: messageRoutes,
  'message-archive': messageArchiveRoutes,
  organization: organizationRoutes,
  session: sessionRoutes,
  'internal-api-key': apiKeyRoutes,
  'organization-api-key': orgApiKeyRoutes,
  dashboard: dashboardRoutes,
  // POST /send and /send/batch: an organisation's own software sends (src/modules/transactional).
  send: sendRoutes,
  // GET /events: the organisation's event stream, a page after a cursor (src/modules/event).
  events: eventRoutes,
} as const;

/** More routes under an entity's path (same sign-in): engagement reports and a contact's opt-outs. */
const entityExtras = [
  ['broadcast', broadcastReportRoutes],
  ['message', messageReportRoutes],
  ['contact', contactOptOutRoutes],
  ['contact', contactMembershipRoutes],
  // A person's data requests: export and erasure (src/modules/privacy).
  ['contact', contactPrivacyRoutes],
  ['subscription', subscriptionMemberRoutes],
] as const;

/** Builds the worker's Hono app: context, tenant, then public and signed-in API routes, then the console. */
export function buildApp() {
  // Platform calls: made on the bare platform host, before (and without) an organisation.
  const platform = new Hono<AppEnv>();
  platform.route('/signup', signupRoutes);
  platform.route('/pre-registration', preRegistrationRoutes);
  platform.route('/operator/demo', demoOperatorRoutes);
  platform.route('/operator', operatorRoutes);
  platform.route('/social/callback', socialCallbackRoutes);
  // Public, on any host: the signed link names the organisation and contact (src/modules/unsubscribe).
  platform.route('/unsubscribe', unsubscribePublicRoutes);
  // Provider callbacks, signed with the integration's credentials (src/modules/sms-hooks, src/modules/bounce).
  platform.route('/hooks/twilio', twilioHookRoutes);
  platform.route('/hooks/sendgrid', sendGridHookRoutes);

  const api = new Hono<AppEnv>();
  // Server-Timing's total: the worker's time for an organisation's call, from here (ahead of the tenant) to its answer,
  // which a client can set against the time it waited (bench:isolation prints both: the rest is the runtime's way in
  // and out).
  api.use('*', timing({ totalDescription: 'app' }));
  api.use('*', tenant);
  // Usage for the dashboard, summed in memory and written in batches (src/modules/stats/requests.ts).
  api.use('*', countRequests);
  api.use('*', demoGuard);
  api.route('/init', initRoutes);
  api.route('/internal-auth', internalAuthRoutes);
  api.route('/internal-user', internalUserRoutes);
  api.route('/internal-user', signCompleteRoutes);
  api.route('/internal-user', accountUserRoutes);
  api.route('/social', socialRoutes);
  api.route('/demo', demoRoutes);
  api.route('/log', clientLogRoutes);
  for (const [path, routes] of Object.entries(entities)) {
    api.use(`/${path}`, requireAuth);
    api.use(`/${path}/*`, requireAuth);
    api.route(`/${path}`, routes);
  }
  for (const [path, routes] of entityExtras) api.route(`/${path}`, routes);

  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use('*', securityHeaders);
  // The tracking pixel and redirect answer from the signed token alone, ahead of the per-request context (no
  // database client, no settings). The deployed worker sends them to buildTrackingApp() before this router.
  app.route('/t', trackingRoutes);
  app.use('*', requestContext);
  // Platform routes first: a matched platform handler answers before the tenant middleware would run.
  app.route('/api/v1', platform);
  app.route('/api/v1', api);
  app.route('/api/health', healthRoutes);
  app.route('/api', apiDocsRoutes);
  // The public unsubscribe page (plain html, no console) and RFC 8058's one-click POST on the same address.
  app.route('/unsubscribe', unsubscribePageRoutes);
  app.route('/unsubscribe', oneClickRoutes);
  // The hosted sign-up forms and their confirmation links, and "send me my link" (plain html, at the organisation's
  // host: src/modules/form/public).
  app.route('/f', formPublicRoutes);
  app.route('/preferences', linkRequestRoutes);
  app.route('/', consoleRoutes);
  return app;
}

/**
 * The tracking pixel and redirect alone, with the same error answers: src/index.ts hands /t/ requests to it,
 * because a broadcast's opens arrive in bursts and the whole app's router (hundreds of routes) would cost more
 * than the answer itself. No middleware, so Hono calls the one matching handler directly: every answer carries
 * the non-page security headers it builds itself (the 404s and errors get them here).
 */
export function buildTrackingApp() {
  const app = new Hono<AppEnv>();
  app.onError((err, c) => withNonDocumentSecurityHeaders(c, handleError(err, c)));
  app.notFound((c) => withNonDocumentSecurityHeaders(c, handleNotFound(c)));
  app.route('/t', trackingRoutes);
  return app;
}

/** Whether a request is for the tracking endpoints (/t/...), read without parsing the whole URL. */
export function isTrackingRequest(request: Request): boolean {
  const url = request.url;
  const path = url.indexOf('/', url.indexOf('//') + 2);
  return path > 0 && url.startsWith('/t/', path);
}
