import { createDb, type Database } from '../../db/client';
import { integrations } from '../../db/schema';
import { ledgerDb } from '../ledger/ledger-db';
import { bounceAddress, bounceDomainOf } from '../bounce/address';
import { sendGridHeaders } from '../bounce/sendgrid-events';
import { blockOf } from '../ledger/ids';
import { ledgerOfMessage, orgLedger, type LedgerHandle } from '../ledger/registry';
import { TenantScope } from '../../db/tenant-scope';
import type { Env } from '../../env';
import type { Transport } from '../../lib/transport/types';
import { providerAccount, type IntegrationRow, type StoredDetails } from '../integration/account';
import { ProviderUnavailableError, providers as defaultProviders, type Providers } from '../integration/providers';
import type { BroadcastCache } from './compose';
import { DkimSigners, loadSigningDomains } from './dkim-signers';

// The open channels of one queue invocation: each integration's row and transport, opened on first use and
// shared by every batch of the invocation, so a consumer handed 100 batches opens one SMTP session, not 100;
// likewise each broadcast's content is read and prepared once per invocation, not once per batch.

export interface Channel {
  integration: IntegrationRow;
  transport: Transport;
  /** The SMTP integration's return path (null for SMS). */
  returnPath: string | null;
  /**
   * A message's envelope sender: its bounce address when the platform reads the bounces (a signed address per message
   * on BOUNCE_DOMAIN, src/modules/bounce/address.ts), else the integration's return path.
   */
  returnPathFor: (messageId: number) => Promise<string> | string | null;
  /** Headers the provider needs to name a message in its events (SendGrid's X-SMTPAPI); null: none. */
  headersFor: ((messageId: number) => Record<string, string>) | null;
}

/** Errors may say they are permanent with `retryable: false` (or `permanent: true`). */
export function isPermanent(error: unknown): boolean {
  const e = error as { retryable?: unknown; permanent?: unknown } | null;
  return !!e && typeof e === 'object' && (e.retryable === false || e.permanent === true);
}

export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

/** A channel that cannot be opened: why, and whether trying later can help. */
export interface ChannelProblem {
  problem: string;
  retryable: boolean;
}

export class SendChannels {
  private open = new Map<number, Promise<Channel | ChannelProblem>>();
  /**
   * Ledgers with a drizzle client on each (null: the organisation is gone), found once per invocation: each
   * organisation's first (its send gates), and the ones its messages' ids name.
   */
  private ledgers = new Map<string, Promise<{ handle: LedgerHandle; db: Database } | null>>();
  private client: Database | null = null;
  /** The broadcasts the invocation's batches send, prepared once (compose.ts). */
  readonly broadcasts: BroadcastCache = new Map();
  /** Each organisation's DKIM signers (its verified domains, read once per invocation: dkim-signers.ts). */
  private signers = new Map<number, Promise<DkimSigners>>();

  constructor(
    private env: Env,
    private deps: Pick<Providers, 'openTransport'> = defaultProviders,
  ) {}

  /** The invocation's database client, made once: building drizzle's schema map costs milliseconds each time. */
  get db(): Database {
    return (this.client ??= createDb(this.env.DB));
  }

  /**
   * A ledger with its drizzle client, looked up (and the client built: milliseconds) once per invocation; null when
   * the organisation is gone. A failed lookup (D1 unreachable) throws and is not kept, so the queue retries the batch
   * instead of taking it for a deleted organisation.
   */
  private cachedLedger(key: string, find: () => Promise<LedgerHandle | null>) {
    let ledger = this.ledgers.get(key);
    if (!ledger) {
      ledger = find().then((handle) => (handle ? { handle, db: ledgerDb(handle) } : null));
      ledger.catch(() => this.ledgers.delete(key));
      this.ledgers.set(key, ledger);
    }
    return ledger;
  }

  /** The organisation's first ledger, which keeps its send gates (send-gate.ts); throws when the organisation is gone. */
  async ledger(_db: Database, orgId: number): Promise<LedgerHandle> {
    const ledger = await this.cachedLedger(`${orgId}`, () => orgLedger(this.env, this.db, orgId));
    if (!ledger) throw new Error(`organisation ${orgId} is gone: its send gate cannot be reached`);
    return ledger.handle;
  }

  /**
   * A drizzle client on the ledger holding the message `id` (its id block names it, registry.ts); null when the
   * organisation or the ledger is gone. A batch's messages are one broadcast's (or one message), so one ledger's.
   */
  async messageLedgerDb(orgId: number, id: number): Promise<Database | null> {
    return (await this.cachedLedger(`${orgId}:${blockOf(id)}`, () => ledgerOfMessage(this.env, this.db, orgId, id)))?.db ?? null;
  }

  /**
   * The organisation's DKIM signers, its verified sending domains read once per invocation. A failed read throws
   * and is not kept (the batch is retried rather than sent unsigned).
   */
  dkimSigners(orgId: number): Promise<DkimSigners> {
    let signers = this.signers.get(orgId);
    if (!signers) {
      signers = loadSigningDomains(this.db, orgId).then((domains) => (domains.length ? new DkimSigners(this.env, domains) : DkimSigners.none));
      signers.catch(() => this.signers.delete(orgId));
      this.signers.set(orgId, signers);
    }
    return signers;
  }

  /** The channel of an integration of the organisation, opened once per invocation. */
  get(db: Database, orgId: number, integrationId: number): Promise<Channel | ChannelProblem> {
    let channel = this.open.get(integrationId);
    if (!channel) {
      channel = this.connect(db, orgId, integrationId);
      this.open.set(integrationId, channel);
    }
    return channel;
  }

  private async connect(db: Database, orgId: number, integrationId: number): Promise<Channel | ChannelProblem> {
    const integration = await new TenantScope(db, integrations, orgId).findById(integrationId);
    if (!integration) return { problem: 'The integration of this sender no longer exists', retryable: false };
    let account: Awaited<ReturnType<typeof providerAccount>>;
    try {
      account = await providerAccount(this.env, integration);
    } catch (error) {
      return { problem: `The integration's credentials cannot be read: ${errorText(error)}`, retryable: false };
    }
    try {
      const transport = await this.deps.openTransport(account, this.env);
      const returnPath = integration.type === 'smtp' ? ((integration.details as StoredDetails).return_path ?? null) : null;
      // Bounces come back to the platform (a signed address per message) unless the integration has its own return
      // path: a provider that rewrites the envelope, or a customer who reads their bounces themselves.
      const bounceDomain = integration.type === 'smtp' && !returnPath ? bounceDomainOf(this.env) : null;
      const returnPathFor = bounceDomain ? (messageId: number) => bounceAddress(this.env, bounceDomain, { orgId, messageId }) : () => returnPath;
      // An integration that takes SendGrid's signed events names each message to SendGrid (src/modules/bounce).
      const headersFor = integration.type === 'smtp' && (integration.details as StoredDetails).sendgrid_verification_key ? sendGridHeaders : null;
      return { integration, transport, returnPath, returnPathFor, headersFor };
    } catch (error) {
      // Not cached as a failure for good: the next batch of this invocation may try again.
      this.open.delete(integrationId);
      return { problem: errorText(error), retryable: !(error instanceof ProviderUnavailableError) && !isPermanent(error) };
    }
  }

  /** Ends every session (SMTP QUIT). */
  async close(): Promise<void> {
    const channels = await Promise.all(this.open.values());
    this.open.clear();
    await Promise.all(channels.map((c) => ('transport' in c ? c.transport.close().catch(() => {}) : undefined)));
  }
}
