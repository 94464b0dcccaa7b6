// Stopping an HTTP server the way a restart wants: no new connections, the requests being
// answered finish (within a grace), and the requests held open by design (a dashboard's event
// stream, a runner's long-poll) are cut at once — their clients reconnect to the next process,
// resuming where they were, instead of holding the old one up until it is killed.
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** A server-sent event stream (EventSource asks for one) or a runner's long-poll for work. */
export function isHeldOpen(req: IncomingMessage): boolean {
  if (req.headers.accept?.includes("text/event-stream")) return true;
  return (req.url ?? "").split("?")[0] === "/api/runner/poll";
}

/**
 * Tracks `server`'s held-open requests from now on; the function returned stops the server:
 * resolves once every connection is gone, those still busy after `graceMs` cut.
 */
export function drainable(server: Server, heldOpen: (req: IncomingMessage) => boolean = isHeldOpen) {
  const held = new Set<IncomingMessage>();
  let stopping = false;
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // A kept-alive connection whose answer ends while stopping would otherwise stay open, idle,
    // until its keep-alive timeout.
    res.once("close", () => { if (stopping) setImmediate(() => server.closeIdleConnections()); });
    if (!heldOpen(req)) return;
    held.add(req);
    req.socket.once("close", () => held.delete(req));
  });
  return async function stop(graceMs: number): Promise<void> {
    stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const req of held) req.socket.destroy();
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    await closed;
    clearTimeout(cut);
  };
}
