import type { ChildProcess } from 'node:child_process';
export interface RunningPlatform {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}
export declare function applyMigrations(persistTo: string, options?: object): Promise<void>;
export declare function seedDatabase(persistTo: string, options?: object): Promise<void>;
export declare function startPlatform(options: {
  port: number;
  persistTo: string;
  vars?: Record<string, string>;
  catchers?: {
    smtpPort?: number;
    smsPort?: number;
    oidcIssuer?: string;
    dohUrl?: string;
    dnsZone?: string;
    /** The local webhook catcher: the seed gives the organisation an endpoint on it and writes its secret to webhookSecrets. */
    webhookPort?: number;
    webhookSecrets?: string;
    /** The Turnstile stand-in's base URL: the worker gets Cloudflare's test keys and the stand-in's script and siteverify. */
    turnstileUrl?: string;
  };
  logFile?: string;
  quiet?: boolean;
  timeoutMs?: number;
  restart?: boolean;
}): Promise<RunningPlatform>;
