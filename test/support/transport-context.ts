// What the transport tests' global setup (Node) hands to the tests (workerd) through vitest's provide/inject.
// Types only: the tests import this file, and it must not pull Node code into the Workers runtime.

/** One message an SMTP test server received, as the control endpoint returns it. */
export interface ReceivedMail {
  server: string;
  from: string;
  to: string[];
  /** The message exactly as received after the end of DATA (un-dot-stuffed by the server). */
  raw: string;
  /** Session id: equal for messages that came over the same connection. */
  connection: string;
  /** 1 for the first message of a connection, 2 for the next... */
  transaction: number;
  /** The name the client gave in EHLO/HELO. */
  ehlo: string;
  secure: boolean;
  user: string | null;
}

/** One DKIM-Signature as mailauth judged it (POST /dkim/verify on the control endpoint). */
export interface DkimVerdict {
  /** 'pass', 'fail', 'neutral', 'none', 'permerror'... */
  result: string;
  /** Why, when it did not pass (e.g. "body hash did not verify"). */
  comment: string | null;
  domain: string | null;
  selector: string | null;
  /** The h= list as the verifier read it. */
  signedHeaders: string | null;
  /** The Authentication-Results text. */
  info: string;
}

export interface TransportServers {
  /**
   * The control endpoint (Node): GET /mail?to=..., GET /stats?server=..., GET /dns-query (DNS-over-HTTPS JSON),
   * POST /dkim/verify ({raw, records}: DkimVerdict[] from mailauth, see test/support/dkim-node.ts), GET
   * /dkim/fixture-signature (test/support/dkim-fixture.ts signed in Node).
   */
  control: string;
  /** smtp-server instances by name (see test/support/smtp-servers.ts). */
  smtp: Record<'pipe' | 'nopipe' | 'open' | 'starttls' | 'ssl' | 'sslUntrusted' | 'starttlsUntrusted' | 'greet421' | 'greet554', number>;
  /** Hand-scripted SMTP servers for failure modes (see test/support/scripted-smtp.ts). */
  scripted: Record<'silent' | 'dropMidData' | 'lockstep' | 'closeAfterFirst' | 'slowFinal', number>;
  /** A port nothing listens on. */
  closedPort: number;
  smtpUser: string;
  smtpPassword: string;
  /** Twilio's own OpenAPI description served by Prism; null when ../shared/twilio is absent. */
  prism: string | null;
  prismSkipReason: string | null;
  /** The local error server for Twilio paths Prism cannot produce: base URLs are {twilioFaults}/{mode}. */
  twilioFaults: string;
  /** The local SMS catcher (scripts/sms-catcher.mjs) on a throwaway folder, and its configured numbers. */
  smsCatcher: string;
  smsCatcherNumbers: string[];
}

declare module 'vitest' {
  interface ProvidedContext {
    transport: TransportServers;
  }
}
