/** Cloudflare's published Turnstile test site key (always passes, visible widget). */
export declare const TEST_SITE_KEY: string;
/** Cloudflare's published test secrets: always passes (here: a token this stand-in issued, once), always fails, always "spent". */
export declare const TEST_SECRETS: { passes: string; fails: string; spent: string };
export interface TurnstileVars {
  TURNSTILE_SITE_KEY: string;
  TURNSTILE_SECRET_KEY: string;
  TURNSTILE_SCRIPT_URL: string;
  TURNSTILE_VERIFY_URL: string;
}
/** Cloudflare's siteverify answer. */
export interface SiteverifyAnswer {
  success: boolean;
  'error-codes': string[];
  challenge_ts?: string;
  hostname?: string;
  action?: string;
  cdata?: string;
}
export interface TurnstileVerification {
  at: string;
  response: string | null;
  remoteip: string | null;
  success: boolean;
  errorCodes: string[];
}
export interface TurnstileStandIn {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** The worker vars pointing at it: test site key, passing test secret, its script and siteverify URLs. */
  vars: TurnstileVars;
  /** Fresh tokens, as the widget would get them (what POST /turnstile/v0/token answers). */
  issueTokens(count?: number, hostname?: string): string[];
  close(): Promise<void>;
}
export declare function turnstileStandInVars(url: string): TurnstileVars;
export declare function startTurnstileStandIn(options?: { port?: number; tokenTtlMs?: number; maxTokens?: number }): Promise<TurnstileStandIn>;
