import type { ErrorCode } from '../shared/errors';
import { MESSAGES } from '../shared/messages';

/** An error that becomes a response in the one error envelope (see app.ts onError). */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = () => new ApiError(404, 'not_found', MESSAGES.notFound);
export const unauthorized = (message: string = MESSAGES.unauthorized) => new ApiError(401, 'unauthorized', message);
export const validationFailed = (fields: Record<string, string[]>) => new ApiError(422, 'validation_failed', MESSAGES.invalidForm, fields);
