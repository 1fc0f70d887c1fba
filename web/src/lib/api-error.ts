import type { ErrorCode } from '@shared/errors';

/** A failed API call: HTTP status (0 for a network failure), the server's error code, message and field messages. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'network_error' | 'unknown';
  readonly fields: Record<string, string[]>;
  readonly requestKey: string;

  constructor(init: { status: number; code: ApiError['code']; message: string; fields?: Record<string, string[]>; requestKey: string }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields ?? {};
    this.requestKey = init.requestKey;
  }
}

/** True when a value is an ApiError with the given code. */
export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
