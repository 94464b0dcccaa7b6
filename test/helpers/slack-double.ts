// A local double of Slack on loopback, both directions of the real protocol: the Web API methods
// Ringmaster calls (auth.test, users.info, chat.postMessage, reactions.add; form-encoded POSTs
// with a Bearer token, answered { ok, … } as Slack does), and the Events API requests Slack sends,
// signed with the app's signing secret (v0 HMAC-SHA256 of "v0:{ts}:{body}"). Every call is
// recorded so tests assert the exact messages and reactions.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac } from "node:crypto";

export interface SlackCall { method: string; token: string | null; args: Record<string, string> }
type Json = Record<string, unknown>;
type Target = string | ((req: Request) => Promise<Response>);

export class SlackDouble {
  readonly calls: SlackCall[] = [];
  readonly workspace = { id: "T0RINGMSTR", name: "Ringmaster Test" };
  readonly botUserId = "U0BOT0001";
  readonly tokens = new Set<string>();
  readonly users = new Map<string, { name: string; real_name: string }>();
  private reactions = new Set<string>();
  private failures: Array<{ method: string; error: string }> = [];
  private server!: Server;
  private nextTs = 1_700_000_000;
  private nextEvent = 1;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  /** The next call of `method` answers { ok: false, error } (Slack's way of refusing). */
  failNext(method: string, error: string) {
    this.failures.push({ method, error });
  }

  called(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** A fresh message timestamp, as Slack writes them ("1700000001.000100"). */
  ts(): string {
    return `${++this.nextTs}.000100`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const args = (req.headers["content-type"] ?? "").includes("json") ? JSON.parse(raw || "{}") : Object.fromEntries(new URLSearchParams(raw));
    const method = (req.url ?? "").replace(/^\/api\//, "").split("?")[0];
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "") || null;
    this.calls.push({ method, token, args });
    const send = (body: Json) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!token || !this.tokens.has(token)) return send({ ok: false, error: "invalid_auth" });
    const failure = this.failures.findIndex((f) => f.method === method);
    if (failure >= 0) return send({ ok: false, error: this.failures.splice(failure, 1)[0].error });
    switch (method) {
      case "auth.test":
        return send({ ok: true, url: "https://ringmaster-test.slack.com/", team: this.workspace.name, team_id: this.workspace.id, user: "ringmaster", user_id: this.botUserId, bot_id: "B0BOT0001" });
      case "users.info": {
        const user = this.users.get(args.user);
        return send(user ? { ok: true, user: { id: args.user, ...user } } : { ok: false, error: "user_not_found" });
      }
      case "chat.postMessage":
        if (!args.channel || !args.text) return send({ ok: false, error: "no_text" });
        return send({ ok: true, channel: args.channel, ts: this.ts(), message: { text: args.text, thread_ts: args.thread_ts } });
      case "chat.getPermalink":
        if (!args.channel || !args.message_ts) return send({ ok: false, error: "message_not_found" });
        return send({ ok: true, channel: args.channel, permalink: `https://ringmaster-test.slack.com/archives/${args.channel}/p${args.message_ts.replace(".", "")}` });
      case "reactions.add": {
        const key = `${args.channel}|${args.timestamp}|${args.name}`;
        if (this.reactions.has(key)) return send({ ok: false, error: "already_reacted" });
        this.reactions.add(key);
        return send({ ok: true });
      }
      default:
        return send({ ok: false, error: "unknown_method" });
    }
  }

  /** An event_callback envelope around a message event, as Slack sends it. */
  envelope(event: Json, eventId = `Ev${String(this.nextEvent++).padStart(8, "0")}`): Json {
    return {
      token: "deprecated-verification-token", team_id: this.workspace.id, api_app_id: "A0RINGMSTR", type: "event_callback",
      event_id: eventId, event_time: Math.floor(Date.now() / 1000), event: { event_ts: event.ts, ...event },
    };
  }

  /** A signed Events API request; `timestamp` and `secret` are there to forge or age one. */
  signedRequest(url: string, secret: string, body: Json | string, opts: { timestamp?: number; retryNum?: number; signature?: string } = {}): Request {
    const raw = typeof body === "string" ? body : JSON.stringify(body);
    const ts = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
    const signature = opts.signature ?? `v0=${createHmac("sha256", secret).update(`v0:${ts}:${raw}`).digest("hex")}`;
    return new Request(url, {
      method: "POST", body: raw,
      headers: {
        "content-type": "application/json", "x-slack-request-timestamp": ts, "x-slack-signature": signature,
        ...(opts.retryNum ? { "x-slack-retry-num": String(opts.retryNum), "x-slack-retry-reason": "http_timeout" } : {}),
      },
    });
  }

  /** Sends a signed request to Ringmaster's Events route (a URL, or its handler called in-process). */
  async send(target: Target, url: string, secret: string, body: Json | string, opts: Parameters<SlackDouble["signedRequest"]>[3] = {}): Promise<Response> {
    const req = this.signedRequest(url, secret, body, opts);
    return typeof target === "string" ? fetch(target, { method: "POST", headers: req.headers, body: await req.text() }) : target(req);
  }
}
