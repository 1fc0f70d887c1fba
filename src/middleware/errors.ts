import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../context';
import { ApiError } from '../lib/api-error';
import type { ErrorBody, ErrorCode } from '../shared/errors';
import { MESSAGES } from '../shared/messages';

function send(c: Context<AppEnv>, status: number, code: ErrorCode, message: string, fields?: Record<string, string[]>) {
  const body: ErrorBody = { error: { code, message, ...(fields ? { fields } : {}), request_id: c.var.requestId } };
  if (c.var.settings) c.header('x-version', c.var.settings.version);
  return c.json(body, status as 400);
}

/** The one place errors become responses: known errors keep their status, anything else is a logged 500. */
export function handleError(err: Error, c: Context<AppEnv>) {
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    return send(c, err.status, err.code, err.message, err.fields);
  }
  if (err instanceof HTTPException && err.status < 500) {
    const invalidJson = /JSON/i.test(err.message);
    return send(c, err.status, invalidJson ? 'invalid_json' : 'bad_request', invalidJson ? MESSAGES.invalidJson : err.message || 'Bad request');
  }
  console.error(JSON.stringify({ level: 'error', request_id: c.var.requestId, path: c.req.path, error: String(err), stack: err.stack }));
  return send(c, 500, 'internal_error', MESSAGES.internal);
}

export function handleNotFound(c: Context<AppEnv>) {
  return send(c, 404, 'not_found', MESSAGES.notFound);
}
