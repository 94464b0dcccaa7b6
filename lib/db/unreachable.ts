// Prisma's codes for "no answer from the server" (P1001 unreachable, P1002 timed out,
// P1017 connection closed, P2024 no pooled connection in time).
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "EHOSTUNREACH"]);

// SQLSTATE classes 08 (connection exception) and 57P (server shut down, restarting, starting up).
const lostServer = (code: unknown) => typeof code === "string" && (code.startsWith("08") || code.startsWith("57P"));

/**
 * True when an error says Postgres could not be reached or dropped the connection (a restart,
 * a failover), as opposed to a query that Postgres answered with an error. Work that failed
 * only because of the former may wait and try again; the latter is a real failure.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const cause = ((e.meta as Record<string, unknown> | undefined)?.driverAdapterError as Record<string, unknown> | undefined)?.cause as Record<string, unknown> | undefined;
    if (typeof e.code === "string" && (PRISMA_CODES.has(e.code) || SOCKET_CODES.has(e.code) || lostServer(e.code))) return true;
    if (cause && (ADAPTER_KINDS.has(String(cause.kind)) || lostServer(cause.code))) return true;
    // node-postgres reports a socket closed under a query, or a query on a client whose
    // socket already failed, as a bare Error with no code.
    if (e instanceof Error && /^Connection terminated|^Client has encountered a connection error/.test(e.message)) return true;
    e = e.cause as Record<string, unknown> | undefined;
  }
  return false;
}
