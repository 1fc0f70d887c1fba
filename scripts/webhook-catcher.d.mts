export type WebhookVerdict = 'ok' | 'bad' | 'none';
export interface CaughtWebhook {
  seq: number;
  at: string;
  path: string;
  headers: Record<string, string>;
  webhookId: string | null;
  /** The event types the body carries (one, or a batch's). */
  types: string[];
  eventIds: string[];
  verdict: WebhookVerdict;
  verdictDetail: string | null;
  /** The status the catcher answered: 204, or 500 for the share it fails on purpose. */
  answered: number;
  /** Accepted with a webhook-id accepted before. */
  duplicate: boolean;
  /** The JSON body parsed (the text when it is not JSON). */
  body: unknown;
}
export interface WebhookCatcherCounts {
  received: number;
  accepted: number;
  duplicates: number;
  failed: number;
  dropped: number;
  /** Requests read whose signature was bad or could not be checked (no secret). */
  unverified: number;
}
export interface WebhookCatcherBehaviour {
  failRate: number;
  downUntil: number;
}
export interface WebhookCatcher {
  port: number;
  url: string;
  secretsFile: string;
  close(): Promise<void>;
}
export declare function startWebhookCatcher(options?: { port?: number; secretsFile?: string; secrets?: string[]; keep?: number }): Promise<WebhookCatcher>;
