import { chmod } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { MCP_PATH } from "@/lib/sandbox/bwrap";

/** Answers one MCP request exactly as Ringmaster's `/api/mcp` would. */
export type McpServe = (req: Request) => Promise<Response>;
/** `port`: the loopback TCP port it listens on, when it was given no socket. */
export type McpGateway = { refused: () => Record<string, number>; close: () => Promise<void>; port: number | null };

const METHODS = new Set(["POST", "GET", "DELETE"]);
// Streamable HTTP's own headers; nothing else of the agent's request (cookies, forwarded-for) passes.
const PASSED_HEADERS = ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"];
// Above the largest call the tools accept (a 1 MB turn is refused by the tool, with its field).
const MAX_BODY = 4 * 1024 * 1024;

const answer = (res: ServerResponse, status: number, code: string, message: string) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: { code, message } }));

/**
 * The sandbox's only road to Ringmaster: an HTTP server on a Unix socket (bridged to a fixed
 * loopback port inside) that passes the MCP path, and nothing else of the app, to `serve`,
 * under the run's own token whatever the agent sent. Refused requests are counted by path.
 * Without a socket path it listens on a free loopback port (an agent that is not sandboxed).
 */
export async function startMcpGateway(opts: { socketPath?: string; token: string; serve: McpServe }): Promise<McpGateway> {
  const refused: Record<string, number> = {};
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== MCP_PATH || !METHODS.has(req.method ?? "")) {
      refused[path] = (refused[path] ?? 0) + 1;
      return answer(res, 404, "not_found", `only ${MCP_PATH} (Ringmaster's MCP endpoint) is reachable from the sandbox`);
    }
    forward(req, res, opts).catch(() => res.headersSent ? res.destroy() : answer(res, 500, "internal", "internal error"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (opts.socketPath) server.listen(opts.socketPath, () => resolve());
    else server.listen(0, "127.0.0.1", () => resolve());
  });
  // The sandboxed user connects to it; only its own sandbox has the socket's folder mounted.
  if (opts.socketPath) await chmod(opts.socketPath, 0o666);
  return {
    port: opts.socketPath ? null : (server.address() as AddressInfo).port,
    refused: () => ({ ...refused }),
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function forward(req: IncomingMessage, res: ServerResponse, opts: { token: string; serve: McpServe }) {
  const body = req.method === "POST" ? await readBody(req) : undefined;
  if (body === null) return answer(res, 413, "too_large", `a request to ${MCP_PATH} holds at most ${MAX_BODY} bytes`);
  const headers = new Headers();
  for (const name of PASSED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  headers.set("authorization", `Bearer ${opts.token}`);
  const response = await opts.serve(new Request("http://ringmaster.internal/api/mcp", { method: req.method, headers, body: body && new Uint8Array(body) }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  Readable.fromWeb(response.body as WebReadableStream).pipe(res);
}
