import type { Context } from 'hono';
import type { AppEnv } from '../../../context';
import type { contacts } from '../../../db/schema';
import { ApiError } from '../../../lib/api-error';
import type { Erasure } from '../../../shared/contracts/privacy';

// PLACEHOLDER (replaced before this lands): the erasure of a contact.
export async function eraseContact(_c: Context<AppEnv>, _contact: typeof contacts.$inferSelect, _confirm: string): Promise<Erasure> {
  throw new ApiError(503, 'internal_error', 'Erasure is being built');
}
