import { DurableObject } from 'cloudflare:workers';

/**
 * One per broadcast: keeps the cursor through the recipients, paces sends with alarms and records progress.
 * The binding and class are declared now so the deployment shape is fixed; the broadcasts capability
 * implements the run itself. Until then it refuses work explicitly rather than pretending to send.
 */
export class BroadcastRunner extends DurableObject {
  async fetch(): Promise<Response> {
    return Response.json({ error: { code: 'not_implemented', message: 'Broadcast sending is not available yet' } }, { status: 501 });
  }
}
