export interface MailCatcher {
  smtpPort: number;
  httpPort: number;
  dir: string;
  close(): Promise<void>;
}
export declare function startMailCatcher(options?: { smtpPort?: number; httpPort?: number; dir?: string }): Promise<MailCatcher>;
