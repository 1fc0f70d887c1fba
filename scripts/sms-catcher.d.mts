export interface SmsCatcher {
  port: number;
  url: string;
  dir: string;
  numbers: string[];
  close(): Promise<void>;
}
export declare const DEFAULT_SMS_NUMBERS: string[];
export declare function startSmsCatcher(options?: {
  port?: number;
  dir?: string;
  numbers?: string[];
  authToken?: string | null;
  callbacks?: boolean;
  callbackDelayMs?: number;
}): Promise<SmsCatcher>;
export declare function signTwilioRequest(authToken: string, url: string, params: Iterable<[string, string]>): string;
