import { MESSAGES } from '../../shared/messages';
import { ApiError, validationFailed } from '../../lib/api-error';

/**
 * Turns a SQLite UNIQUE violation into the 422 the console shows on the field
 * ('UNIQUE constraint failed: tags.org_id, tags.name' -> { name: [duplicate] }). Other errors pass through.
 */
export function mapUniqueViolation(error: unknown): unknown {
  const text = errorText(error);
  const match = /UNIQUE constraint failed: ([\w., ]+)/.exec(text);
  if (!match) return error;
  const columns = match[1].split(',').map((c) => c.trim().split('.').pop() ?? '');
  const field = columns.filter((c) => c !== 'org_id').pop() ?? '_';
  return validationFailed({ [field]: [MESSAGES.duplicate] });
}

function errorText(error: unknown): string {
  let text = '';
  for (let e: unknown = error; e instanceof Error; e = e.cause) text += ` ${e.message}`;
  return text;
}

/** Runs a write and rethrows unique violations as 422s. */
export async function withUniqueFields<R>(write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (error) {
    const mapped = mapUniqueViolation(error);
    throw mapped instanceof ApiError ? mapped : error;
  }
}
