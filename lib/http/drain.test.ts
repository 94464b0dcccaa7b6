import { Agent, createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { drainable, isHeldOpen } from "@/lib/http/drain";

let server: Server | undefined;
afterEach(() => { server?.closeAllConnections(); server?.close(); });

/** A real server: `/slow` answers when released, an event stream and the long-poll never end, `/stuck` never answers. */
async function serve() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const arrived: string[] = [];
  server = createServer((req, res) => {
    arrived.push(req.url ?? "");
    if (req.url === "/slow") void released.then(() => res.end("the whole answer"));
    else if (req.headers.accept === "text/event-stream") res.writeHead(200, { "content-type": "text/event-stream" }).write("data: 1\n\n");
  });
  // A kept-alive connection would hold the stop for this long (the default is 5 s): past the test's timeout.
  server.keepAliveTimeout = 600_000;
  const stop = drainable(server);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true });
  /** Sends a GET; `response` is its status and whole body, or the error that ended it. */
  const get = (path: string, headers: Record<string, string> = {}) => {
    let first!: () => void;
    const started = new Promise<void>((r) => (first = r));
    const response = new Promise<string>((resolve) => {
      const req = request({ host: "127.0.0.1", port, path, headers, agent }, (res: IncomingMessage) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => { body += chunk; first(); });
        res.on("end", () => resolve(`${res.statusCode} ${body}`));
        res.on("error", (err) => resolve(`cut after ${JSON.stringify(body)}: ${err.message}`));
      });
      req.on("error", (err) => resolve(`error: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
      req.end();
    });
    return { started, response };
  };
  const until = async (n: number) => { while (arrived.length < n) await new Promise((r) => setTimeout(r, 5)); };
  return { stop, get, until, release, arrived };
}

describe("drainable", () => {
  it("cuts event streams and long-polls at once, lets a request being answered finish, and refuses new ones", async () => {
    const s = await serve();
    const events = s.get("/api/events?projectId=p", { accept: "text/event-stream" });
    await events.started;
    const poll = s.get("/api/runner/poll?wait=30");
    const slow = s.get("/slow");
    await s.until(3);
    let stopped = false;
    const stopping = s.stop(600_000).then(() => { stopped = true; });
    expect(await events.response).toMatch(/^cut after "data: 1\\n\\n": aborted$/);
    expect(await poll.response).toBe("error: ECONNRESET");
    expect(await s.get("/after").response).toBe("error: ECONNREFUSED");
    expect(stopped).toBe(false);
    s.release();
    expect(await slow.response).toBe("200 the whole answer");
    await stopping;
    expect(s.arrived).toEqual(["/api/events?projectId=p", "/api/runner/poll?wait=30", "/slow"]);
  });

  it("cuts a request still busy after the grace", async () => {
    const s = await serve();
    const stuck = s.get("/stuck");
    await s.until(1);
    await s.stop(50);
    expect(await stuck.response).toBe("error: ECONNRESET");
  });

  it("is not held up by a kept-alive connection left idle", async () => {
    const s = await serve();
    s.release();
    expect(await s.get("/slow").response).toBe("200 the whole answer");
    await s.stop(600_000);
  });
});

describe("isHeldOpen", () => {
  const req = (url: string, accept?: string) => ({ url, headers: accept ? { accept } : {} }) as IncomingMessage;
  it("is an event stream by its Accept, or the runner's long-poll by its path", () => {
    expect(isHeldOpen(req("/api/events", "text/event-stream"))).toBe(true);
    expect(isHeldOpen(req("/api/runs/r1/log", "text/event-stream, */*"))).toBe(true);
    expect(isHeldOpen(req("/api/runner/poll?wait=30"))).toBe(true);
    expect(isHeldOpen(req("/api/runner/poll"))).toBe(true);
    expect(isHeldOpen(req("/api/events"))).toBe(false);
    expect(isHeldOpen(req("/api/runner/pollx"))).toBe(false);
    expect(isHeldOpen(req("/api/runner/ping", "application/json"))).toBe(false);
  });
});
