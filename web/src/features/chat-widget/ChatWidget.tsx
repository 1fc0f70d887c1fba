import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useRuntimeSettings } from '../../lib/runtime-settings';
import { currentUserAtom, guestInitAtom } from '../../lib/session-state';

// The optional live-chat widget (a Chatwoot-compatible provider, configured on the platform): loaded for signed-in
// users only, from the console frame (AppLayout), so recipients on the public unsubscribe page never get it. The
// content security policy names the provider's origin only when it is configured.

interface ChatwootSdk {
  run(options: { websiteToken: string; baseUrl: string }): void;
}
interface Chatwoot {
  setUser(identifier: string, user: { name?: string; email?: string }): void;
  setCustomAttributes(attributes: Record<string, string>): void;
}
type ChatWindow = Window & { chatwootSDK?: ChatwootSdk; $chatwoot?: Chatwoot };

const SCRIPT_ID = 'chat-widget-sdk';

/** Adds the provider's script once and starts the widget when it has loaded. */
function loadWidget(baseUrl: string, websiteToken: string): void {
  if (document.getElementById(SCRIPT_ID)) return;
  const script = document.createElement('script');
  script.id = SCRIPT_ID;
  script.src = `${baseUrl}/packs/js/sdk.js`;
  script.async = true;
  script.onload = () => (window as ChatWindow).chatwootSDK?.run({ websiteToken, baseUrl });
  document.body.appendChild(script);
}

export function ChatWidget() {
  // The dialog is offered when a chat provider is configured and the runtime settings leave dialog.enabled on.
  const configured = useAtomValue(guestInitAtom)?.chat_widget ?? null;
  const widget = useRuntimeSettings().dialogEnabled ? configured : null;
  const user = useAtomValue(currentUserAtom);
  useEffect(() => {
    if (!widget || !user) return;
    loadWidget(widget.base_url, widget.website_token);
    // Who is writing: the user, their email and their organisation, so support answers the right account.
    const identify = () => {
      const chat = (window as ChatWindow).$chatwoot;
      chat?.setUser(`${user.organization.domain}:${user.id}`, { name: user.name || user.username, email: user.email ?? undefined });
      chat?.setCustomAttributes({ organization: user.organization.name, organization_domain: user.organization.domain });
    };
    window.addEventListener('chatwoot:ready', identify);
    identify();
    return () => window.removeEventListener('chatwoot:ready', identify);
  }, [widget, user]);
  return null;
}
