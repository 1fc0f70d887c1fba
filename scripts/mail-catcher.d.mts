export interface MailCatcher {
  smtpPort: number;
  httpPort: number;
  dir: string;
  /** From now on, mail to hard-bounce@, soft-bounce@ or complaint@ (any domain) is answered at `url` (wrangler dev's email endpoint). */
  answerBouncesAt(url: string): void;
  close(): Promise<void>;
}
export declare function startMailCatcher(options?: { smtpPort?: number; httpPort?: number; dir?: string }): Promise<MailCatcher>;
