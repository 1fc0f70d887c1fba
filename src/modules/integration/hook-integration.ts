import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { integrations } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { parseId } from '../../lib/validate';

/**
 * The integration a provider's callback URL names (`:integrationId`), of the given type: a 404 otherwise. The
 * organisation of the call is this integration's, never the request's host (src/modules/sms-hooks, src/modules/bounce).
 */
export async function hookIntegration(c: Context<AppEnv>, type: 'smtp' | 'twilio') {
  const integrationId = parseId(c.req.param('integrationId') ?? '');
  const [row] = integrationId
    ? await c.var.db
        .select()
        .from(integrations)
        .where(and(eq(integrations.id, integrationId), eq(integrations.type, type)))
    : [];
  if (!row) throw new ApiError(404, 'not_found', 'No such integration');
  return row;
}

/** A callback whose signature does not verify under the integration's credentials. */
export const webhookForbidden = () => new ApiError(403, 'webhook_invalid', 'The request is not signed by the provider for this integration');
