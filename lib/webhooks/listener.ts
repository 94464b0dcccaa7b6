import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { getLogger } from "@/lib/log";
import { maxBodyBytes, receiveWebhook, tooLarge, webhookEndpoint, type HeaderSource, type WebhookAnswer } from "@/lib/webhooks/receive";
import { drainable } from "@/lib/http/drain";

class BodyTooLarge extends Error {}

// Read chunk by chunk and abandoned past the cap, as the web app's routes do: a chunked request
// has no Content-Length to refuse up front.
function readCapped(req: IncomingMessage, maxBytes: number): Promise<string> {
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners("data");
        reject(new BodyTooLarge());
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const headersOf = (req: IncomingMessage): HeaderSource => ({
  get: (name) => {
    const value = req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  },
});

function send(res: ServerResponse, answer: WebhookAnswer, close = false): void {
  res.writeHead(answer.status, { "content-type": "application/json", "cache-control": "no-store", ...(close ? { connection: "close" } : {}) });
  res.end(JSON.stringify(answer.body));
}

const notFound: WebhookAnswer = { status: 404, body: { error: { code: "not_found", message: "not found" } } };
const notPost: WebhookAnswer = { status: 405, body: { error: { code: "method_not_allowed", message: "webhooks are POSTed" } } };
const internal: WebhookAnswer = { status: 500, body: { error: { code: "internal", message: "internal error" } } };

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const endpoint = webhookEndpoint(new URL(req.url ?? "/", "http://listener").pathname);
  if (!endpoint) return send(res, notFound);
  if (req.method !== "POST") return send(res, notPost);
  let raw: string;
  try {
    raw = await readCapped(req, maxBodyBytes(endpoint));
  } catch (err) {
    // The rest of an oversized body is not read: the connection closes after the answer.
    if (err instanceof BodyTooLarge) return send(res, tooLarge(endpoint), true);
    throw err;
  }
  send(res, await receiveWebhook(endpoint, headersOf(req), raw));
}

/**
 * The webhook intake as a plain `node:http` listener (the worker starts it when
 * WEBHOOK_LISTENER_PORT is set): the same paths, checks and answers as the web app's routes,
 * without the web framework's cost per request.
 */
export function startWebhookListener(port: number, host: string): Promise<{ server: Server; stop: (graceMs: number) => Promise<void> }> {
  const log = getLogger("webhook-listener");
  const server = createServer((req, res) => {
    answer(req, res).catch((err: Error) => {
      log.error({ err: err.message, stack: err.stack }, "webhook intake failed");
      if (!res.headersSent) send(res, internal);
      else res.destroy();
    });
  });
  const stop = drainable(server);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({ server, stop });
    });
  });
}
