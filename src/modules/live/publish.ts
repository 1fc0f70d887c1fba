import type { Env } from '../../env';
import type { LiveEvent } from '../../shared/contracts/import';

/**
 * Pushes an event to every console of the organisation connected to GET /api/v1/live (through its OrgHub).
 * Live updates are a convenience on top of stored state, so a failure is logged and never fails the caller.
 */
export async function publishToOrg(env: Env, orgId: number, event: LiveEvent): Promise<number> {
  try {
    return await env.ORG_HUB.get(env.ORG_HUB.idFromName(String(orgId))).publish(event);
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', live: event.type, org_id: orgId, error: String(error) }));
    return 0;
  }
}
