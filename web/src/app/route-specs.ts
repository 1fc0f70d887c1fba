import { HomePage } from '../features/auth/HomePage';
import { NotFoundPage } from '../features/pages/NotFoundPage';
import { StaticPage } from '../features/pages/StaticPage';
import { config } from '../lib/config';
import type { RuntimeSettings } from '../lib/runtime-settings';
import { buildRouteTable, lazyPage, type RouteDef, type RouteSpec } from '../lib/route-table';

// Each page is a chunk of its own, loaded when first opened (AppRoutes shows a loader meanwhile): signing in loads
// only the sign-in card, not the template editor's lexical or the dashboard's chart.js. The pages a guest lands on
// are in the first script.
const ActivityLogPage = lazyPage(() => import('../features/activity-log/ActivityLogPage').then((m) => m.ActivityLogPage));
const BlacklistFormPage = lazyPage(() => import('../features/blacklist/BlacklistFormPage').then((m) => m.BlacklistFormPage));
const BlacklistListPage = lazyPage(() => import('../features/blacklist/BlacklistListPage').then((m) => m.BlacklistListPage));
const ContactFormPage = lazyPage(() => import('../features/contact/ContactFormPage').then((m) => m.ContactFormPage));
const ContactViewPage = lazyPage(() => import('../features/contact/ContactViewPage').then((m) => m.ContactViewPage));
const ContactListPage = lazyPage(() => import('../features/contact/ContactListPage').then((m) => m.ContactListPage));
const FieldFormPage = lazyPage(() => import('../features/field/FieldFormPage').then((m) => m.FieldFormPage));
const FieldListPage = lazyPage(() => import('../features/field/FieldListPage').then((m) => m.FieldListPage));
const ImportPage = lazyPage(() => import('../features/import/ImportPage').then((m) => m.ImportPage));
const FormListPage = lazyPage(() => import('../features/form/FormListPage').then((m) => m.FormListPage));
const FormFormPage = lazyPage(() => import('../features/form/FormFormPage').then((m) => m.FormFormPage));
const SubscriptionFormPage = lazyPage(() => import('../features/subscription/SubscriptionFormPage').then((m) => m.SubscriptionFormPage));
const SubscriptionListPage = lazyPage(() => import('../features/subscription/SubscriptionListPage').then((m) => m.SubscriptionListPage));
const MyProfilePage = lazyPage(() => import('../features/account/MyProfilePage').then((m) => m.MyProfilePage));
const ApiKeyFormPage = lazyPage(() => import('../features/account/ApiKeyFormPage').then((m) => m.ApiKeyFormPage));
const MyApiKeysPage = lazyPage(() => import('../features/account/MyApiKeysPage').then((m) => m.MyApiKeysPage));
const MyOrganizationPage = lazyPage(() => import('../features/account/MyOrganizationPage').then((m) => m.MyOrganizationPage));
const OrgApiKeysPage = lazyPage(() => import('../features/account/OrgApiKeysPage').then((m) => m.OrgApiKeysPage));
const MySecurityPage = lazyPage(() => import('../features/account/MySecurityPage').then((m) => m.MySecurityPage));
const MySessionsPage = lazyPage(() => import('../features/account/MySessionsPage').then((m) => m.MySessionsPage));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/ForgotPasswordPage').then((m) => m.ForgotPasswordPage));
const PasswordResetPage = lazyPage(() => import('../features/auth/PasswordResetPage').then((m) => m.PasswordResetPage));
const SignCompletePage = lazyPage(() => import('../features/auth/SignCompletePage').then((m) => m.SignCompletePage));
const DemoInfoPage = lazyPage(() => import('../features/demo/DemoInfoPage').then((m) => m.DemoInfoPage));
const SocialLoginPage = lazyPage(() => import('../features/auth/SocialLoginPage').then((m) => m.SocialLoginPage));
const TestPage = lazyPage(() => import('../features/diagnostics/TestPage').then((m) => m.TestPage));
const TagFormPage = lazyPage(() => import('../features/tag/TagFormPage').then((m) => m.TagFormPage));
const TagListPage = lazyPage(() => import('../features/tag/TagListPage').then((m) => m.TagListPage));
const CampaignFormPage = lazyPage(() => import('../features/campaign/CampaignFormPage').then((m) => m.CampaignFormPage));
const CampaignListPage = lazyPage(() => import('../features/campaign/CampaignListPage').then((m) => m.CampaignListPage));
const BroadcastFormPage = lazyPage(() => import('../features/broadcast/BroadcastFormPage').then((m) => m.BroadcastFormPage));
const BroadcastListPage = lazyPage(() => import('../features/broadcast/BroadcastListPage').then((m) => m.BroadcastListPage));
const BroadcastViewPage = lazyPage(() => import('../features/broadcast/BroadcastViewPage').then((m) => m.BroadcastViewPage));
const MessageListPage = lazyPage(() => import('../features/message/MessageListPage').then((m) => m.MessageListPage));
const MessageViewPage = lazyPage(() => import('../features/message/MessageViewPage').then((m) => m.MessageViewPage));
const IntegrationCredentialsPage = lazyPage(() => import('../features/integration/IntegrationCredentialsPage').then((m) => m.IntegrationCredentialsPage));
const IntegrationFormPage = lazyPage(() => import('../features/integration/IntegrationFormPage').then((m) => m.IntegrationFormPage));
const IntegrationListPage = lazyPage(() => import('../features/integration/IntegrationListPage').then((m) => m.IntegrationListPage));
const SenderFormPage = lazyPage(() => import('../features/sender/SenderFormPage').then((m) => m.SenderFormPage));
const DomainListPage = lazyPage(() => import('../features/domain/DomainListPage').then((m) => m.DomainListPage));
const DomainViewPage = lazyPage(() => import('../features/domain/DomainViewPage').then((m) => m.DomainViewPage));
const WebhookListPage = lazyPage(() => import('../features/webhook/WebhookListPage').then((m) => m.WebhookListPage));
const WebhookDeliveriesPage = lazyPage(() => import('../features/webhook/WebhookDeliveriesPage').then((m) => m.WebhookDeliveriesPage));
const SenderListPage = lazyPage(() => import('../features/sender/SenderListPage').then((m) => m.SenderListPage));
const TemplateFormPage = lazyPage(() => import('../features/template/TemplateFormPage').then((m) => m.TemplateFormPage));
const TemplateListPage = lazyPage(() => import('../features/template/TemplateListPage').then((m) => m.TemplateListPage));
const TemplatePreviewPage = lazyPage(() => import('../features/template/TemplatePreviewPage').then((m) => m.TemplatePreviewPage));

/** Every declared route (spec section 2); static pages are added from the runtime settings. */
export const ROUTE_SPECS: RouteSpec[] = [
  { name: 'home', path: '/', component: HomePage },
  { name: 'error_404', path: '/page-not-found', component: NotFoundPage },
  { name: 'social_login', path: '/social-login', component: SocialLoginPage },
  { name: 'password_reset', path: '/password-reset', component: PasswordResetPage },
  { name: 'forgot_password', path: '/forgot-password', component: ForgotPasswordPage },
  { name: 'sign_complete', path: '/sign-complete', component: SignCompletePage },
  { name: 'demo_info', path: '/demo-info', component: DemoInfoPage },
  { name: 'test', path: '/test', component: TestPage },
  { name: 'my_profile', path: '/me/profile', component: MyProfilePage },
  { name: 'my_organization', path: '/me/organization', component: MyOrganizationPage },
  // The organisation's API keys for its software (issue 36), beside its other settings.
  { name: 'my_organization_keys', path: '/me/organization-keys', component: OrgApiKeysPage },
  { name: 'my_security', path: '/me/security', component: MySecurityPage },
  { name: 'my_session', path: '/me/session', component: MySessionsPage },
  // The API keys page exists only when the apiListable option is set.
  ...(config.apiListable
    ? [
        { name: 'my_api', path: '/me/api', component: MyApiKeysPage },
        { name: 'internal-api-key_create', path: '/me/api/create', component: ApiKeyFormPage },
        { name: 'internal-api-key_update', path: '/me/api/update/:id', component: ApiKeyFormPage },
      ]
    : []),
  { name: 'tag_list', path: '/tag', component: TagListPage },
  { name: 'tag_create', path: '/tag/create', component: TagFormPage },
  { name: 'tag_update', path: '/tag/update/:id', component: TagFormPage },
  { name: 'contact_list', path: '/contact', component: ContactListPage },
  { name: 'contact_create', path: '/contact/create', component: ContactFormPage },
  { name: 'contact_update', path: '/contact/update/:id', component: ContactFormPage },
  { name: 'contact_view', path: '/contact/view/:id', component: ContactViewPage },
  { name: 'contact_import', path: '/contact/import', component: ImportPage },
  { name: 'field_list', path: '/field', component: FieldListPage },
  { name: 'field_create', path: '/field/create', component: FieldFormPage },
  { name: 'field_update', path: '/field/update/:id', component: FieldFormPage },
  { name: 'subscription_list', path: '/subscription', component: SubscriptionListPage },
  { name: 'subscription_create', path: '/subscription/create', component: SubscriptionFormPage },
  { name: 'subscription_update', path: '/subscription/update/:id', component: SubscriptionFormPage },
  // Hosted sign-up forms (issue 39): what a form asks and offers, its hosted link and embed snippet.
  { name: 'form_list', path: '/form', component: FormListPage },
  { name: 'form_create', path: '/form/create', component: FormFormPage },
  { name: 'form_update', path: '/form/update/:id', component: FormFormPage },
  { name: 'blacklist_list', path: '/blacklist', component: BlacklistListPage },
  { name: 'blacklist_create', path: '/blacklist/create', component: BlacklistFormPage },
  { name: 'activity_log', path: '/activity-log', component: ActivityLogPage },
  { name: 'integration_list', path: '/integration', component: IntegrationListPage },
  { name: 'integration_create', path: '/integration/create', component: IntegrationFormPage },
  { name: 'integration_update', path: '/integration/update/:id', component: IntegrationFormPage },
  { name: 'integration_credentials', path: '/integration/update/:id/credentials', component: IntegrationCredentialsPage },
  { name: 'sender_list', path: '/sender', component: SenderListPage },
  { name: 'sender_create', path: '/sender/create', component: SenderFormPage },
  { name: 'sender_update', path: '/sender/update/:id', component: SenderFormPage },
  // Sending domains (issue 37): proof of control, the DKIM key and the records' checks.
  { name: 'domain_list', path: '/domain', component: DomainListPage },
  { name: 'domain_view', path: '/domain/view/:id', component: DomainViewPage },
  // Webhook endpoints (issue 38): where the organisation's events are delivered, and each one's delivery log.
  { name: 'webhook_list', path: '/webhook', component: WebhookListPage },
  { name: 'webhook_deliveries', path: '/webhook/deliveries/:id', component: WebhookDeliveriesPage },
  { name: 'template_list', path: '/template', component: TemplateListPage },
  { name: 'template_create', path: '/template/create', component: TemplateFormPage },
  { name: 'template_update', path: '/template/update/:id', component: TemplateFormPage },
  { name: 'template_preview', path: '/template/preview/:id', component: TemplatePreviewPage },
  { name: 'campaign_list', path: '/campaign', component: CampaignListPage },
  { name: 'campaign_create', path: '/campaign/create', component: CampaignFormPage },
  { name: 'campaign_update', path: '/campaign/update/:id', component: CampaignFormPage },
  { name: 'broadcast_list', path: '/broadcast', component: BroadcastListPage },
  { name: 'broadcast_create', path: '/broadcast/create', component: BroadcastFormPage },
  { name: 'broadcast_view', path: '/broadcast/view/:id', component: BroadcastViewPage },
  { name: 'message_list', path: '/message', component: MessageListPage },
  { name: 'message_view', path: '/message/view/:id', component: MessageViewPage },
];

/** The console's route table with the runtime settings' static pages and disabled routes applied. */
export function consoleRouteTable(settings: Pick<RuntimeSettings, 'staticPages' | 'disabledRoutes'>): RouteDef[] {
  return buildRouteTable(ROUTE_SPECS, { ...config, staticPages: settings.staticPages, disabledRoutes: settings.disabledRoutes, staticPage: StaticPage });
}
