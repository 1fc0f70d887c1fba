// The optional live-chat widget (spec 1), off unless the platform is configured with a Chatwoot-compatible
// provider: CHAT_WIDGET_BASE_URL (its origin, e.g. https://chat.example.com) and CHAT_WIDGET_TOKEN (the website
// token, public by nature: it is in every page that shows the widget). The console loads it for signed-in users
// only, and the content security policy allows that origin only when it is configured.

export interface ChatWidget {
  base_url: string;
  website_token: string;
}

/** The widget's settings, or null when it is off or misconfigured (a URL that is not http(s) turns it off). */
export function chatWidgetOf(env: { CHAT_WIDGET_BASE_URL?: string; CHAT_WIDGET_TOKEN?: string }): ChatWidget | null {
  const token = env.CHAT_WIDGET_TOKEN?.trim();
  const raw = env.CHAT_WIDGET_BASE_URL?.trim();
  if (!token || !raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return { base_url: url.origin, website_token: token };
  } catch {
    return null;
  }
}
