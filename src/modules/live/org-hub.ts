import { DurableObject } from 'cloudflare:workers';

/**
 * One per organisation: the console's live-update channel (a Durable Object; durable-objects/org-hub.ts names the
 * class for the runtime, src/index.ts exports it). Browsers connect by WebSocket (hibernatable, so
 * idle connections cost nothing); the worker and queue consumers call `publish` to push an event to all.
 */
export class OrgHub extends DurableObject {
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') {
      return new Response('Expected a WebSocket upgrade', { status: 426 });
    }
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** Sends one event to every connected console of this organisation; returns how many received it. */
  async publish(event: { type: string; [key: string]: unknown }): Promise<number> {
    const text = JSON.stringify(event);
    let delivered = 0;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(text);
        delivered++;
      } catch {
        // A socket closing while we send is not an error for the others.
      }
    }
    return delivered;
  }

  async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === 'ping') socket.send('pong');
  }

  async webSocketClose(socket: WebSocket, code: number): Promise<void> {
    socket.close(code, 'closing');
  }
}
