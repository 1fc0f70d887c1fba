import type { ClientLogInput } from '@shared/contracts/auth';
import { ApiError } from './api-error';

/** One error to report. */
export interface ErrorReport {
  message: string;
  name?: string;
  stack?: string;
  context?: Record<string, unknown>;
}

export interface ClientLoggerDeps {
  /** Sends one payload (POST to the configured log endpoint). */
  send: (payload: ClientLogInput) => Promise<unknown>;
  env: string;
  url: () => string;
  userAgent: () => string;
  now?: () => number;
  /** Upper bound of reports per page load, so a render loop cannot flood the endpoint. */
  maxReports?: number;
}

/** Statuses never reported: auth and validation answers are expected, network errors are not ours. */
const SILENT_STATUSES = new Set([0, 401, 403, 422]);

/** Whether an error should reach the log (API errors are reported by the client itself, and only 5xx). */
export function isReportable(error: unknown): boolean {
  return !(error instanceof ApiError);
}

/** Builds the body of POST /log: {msg, env, level 'ERROR', args: {stack, name, context, url, userAgent, timestamp}}. */
export function buildLogPayload(report: ErrorReport, deps: Pick<ClientLoggerDeps, 'env' | 'url' | 'userAgent' | 'now'>): ClientLogInput {
  return {
    msg: (report.message || 'Unknown error').slice(0, 2000),
    env: deps.env,
    level: 'ERROR',
    args: {
      stack: report.stack ?? null,
      name: report.name ?? 'Error',
      context: report.context ?? null,
      url: deps.url(),
      userAgent: deps.userAgent(),
      timestamp: new Date((deps.now ?? Date.now)()).toISOString(),
    },
  };
}

/** Turns anything thrown into a report. */
export function toReport(error: unknown, context?: Record<string, unknown>): ErrorReport {
  if (error instanceof Error) return { message: error.message, name: error.name, stack: error.stack, context };
  return { message: typeof error === 'string' ? error : safeJson(error), name: 'Error', context };
}

/** Reports client errors (window errors, unhandled rejections, API 5xx) to the server log. */
export class ClientLogger {
  private sent = 0;
  private readonly seen = new Set<string>();

  constructor(private readonly deps: ClientLoggerDeps) {}

  /** Sends one report unless it repeats an earlier one or the per-page budget is used up. Never throws. */
  report(report: ErrorReport): void {
    const status = typeof report.context?.status === 'number' ? report.context.status : null;
    if (status !== null && SILENT_STATUSES.has(status)) return;
    const fingerprint = `${report.name}:${report.message}:${status ?? ''}`;
    if (this.seen.has(fingerprint) || this.sent >= (this.deps.maxReports ?? 20)) return;
    this.seen.add(fingerprint);
    this.sent++;
    this.deps.send(buildLogPayload(report, this.deps)).catch(() => undefined);
  }

  /** Listens to window error and unhandledrejection events; returns the function that stops listening. */
  install(target: Window): () => void {
    const onError = (event: ErrorEvent) => {
      const error: unknown = event.error ?? event.message;
      if (!isReportable(error)) return;
      this.report(toReport(error, { source: 'window.error', file: event.filename, line: event.lineno, column: event.colno }));
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      if (!isReportable(event.reason)) return;
      this.report(toReport(event.reason, { source: 'unhandledrejection' }));
    };
    target.addEventListener('error', onError);
    target.addEventListener('unhandledrejection', onRejection);
    return () => {
      target.removeEventListener('error', onError);
      target.removeEventListener('unhandledrejection', onRejection);
    };
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
