import { ActivityLogPage } from '../features/activity-log/ActivityLogPage';
import { BlacklistFormPage } from '../features/blacklist/BlacklistFormPage';
import { BlacklistListPage } from '../features/blacklist/BlacklistListPage';
import { ContactFormPage } from '../features/contact/ContactFormPage';
import { ContactListPage } from '../features/contact/ContactListPage';
import { FieldFormPage } from '../features/field/FieldFormPage';
import { FieldListPage } from '../features/field/FieldListPage';
import { ImportPage } from '../features/import/ImportPage';
import { SubscriptionFormPage } from '../features/subscription/SubscriptionFormPage';
import { SubscriptionListPage } from '../features/subscription/SubscriptionListPage';
import { MyProfilePage } from '../features/account/MyProfilePage';
import { ApiKeyFormPage } from '../features/account/ApiKeyFormPage';
import { MyApiKeysPage } from '../features/account/MyApiKeysPage';
import { MyOrganizationPage } from '../features/account/MyOrganizationPage';
import { MySecurityPage } from '../features/account/MySecurityPage';
import { MySessionsPage } from '../features/account/MySessionsPage';
import { HomePage } from '../features/auth/HomePage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { PasswordResetPage } from '../features/auth/PasswordResetPage';
import { SignCompletePage } from '../features/auth/SignCompletePage';
import { DemoInfoPage } from '../features/demo/DemoInfoPage';
import { SocialLoginPage } from '../features/auth/SocialLoginPage';
import { TestPage } from '../features/diagnostics/TestPage';
import { NotFoundPage } from '../features/pages/NotFoundPage';
import { StaticPage } from '../features/pages/StaticPage';
import { TagFormPage } from '../features/tag/TagFormPage';
import { TagListPage } from '../features/tag/TagListPage';
import { CampaignFormPage } from '../features/campaign/CampaignFormPage';
import { CampaignListPage } from '../features/campaign/CampaignListPage';
import { BroadcastFormPage } from '../features/broadcast/BroadcastFormPage';
import { BroadcastListPage } from '../features/broadcast/BroadcastListPage';
import { BroadcastViewPage } from '../features/broadcast/BroadcastViewPage';
import { MessageListPage } from '../features/message/MessageListPage';
import { MessageViewPage } from '../features/message/MessageViewPage';
import { IntegrationCredentialsPage } from '../features/integration/IntegrationCredentialsPage';
import { IntegrationFormPage } from '../features/integration/IntegrationFormPage';
import { IntegrationListPage } from '../features/integration/IntegrationListPage';
import { SenderFormPage } from '../features/sender/SenderFormPage';
import { SenderListPage } from '../features/sender/SenderListPage';
import { TemplateFormPage } from '../features/template/TemplateFormPage';
import { TemplateListPage } from '../features/template/TemplateListPage';
import { TemplatePreviewPage } from '../features/template/TemplatePreviewPage';
import { config } from '../lib/config';
import type { RuntimeSettings } from '../lib/runtime-settings';
import { buildRouteTable, type RouteDef, type RouteSpec } from '../lib/route-table';

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
  { name: 'contact_import', path: '/contact/import', component: ImportPage },
  { name: 'field_list', path: '/field', component: FieldListPage },
  { name: 'field_create', path: '/field/create', component: FieldFormPage },
  { name: 'field_update', path: '/field/update/:id', component: FieldFormPage },
  { name: 'subscription_list', path: '/subscription', component: SubscriptionListPage },
  { name: 'subscription_create', path: '/subscription/create', component: SubscriptionFormPage },
  { name: 'subscription_update', path: '/subscription/update/:id', component: SubscriptionFormPage },
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
