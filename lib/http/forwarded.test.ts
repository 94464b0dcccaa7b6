import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseTrustedProxies, sanitizeForwarded } from "@/lib/http/forwarded";

let server: Server | undefined;
afterEach(() => server?.close());

/** A real HTTP server with the edge rewrite; answers with the headers the app would see. */
async function echo(trustedProxies: string) {
  const trusted = parseTrustedProxies(trustedProxies);
  server = createServer((req, res) => {
    sanitizeForwarded(req.headers, req.socket.remoteAddress, trusted);
    res.end(JSON.stringify(req.headers));
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return async (headers: Record<string, string>) => (await fetch(`http://127.0.0.1:${port}/`, { headers })).json();
}

describe("forwarded headers at the edge", () => {
  it("drops a client's X-Forwarded-* and X-Real-IP when no proxy is trusted (the default)", async () => {
    const seen = await (await echo(""))({ "x-forwarded-for": "203.0.113.9", "x-forwarded-host": "evil.test", "x-forwarded-proto": "https", "x-real-ip": "1.2.3.4" });
    expect([seen["x-forwarded-for"], seen["x-forwarded-host"], seen["x-forwarded-proto"], seen["x-real-ip"]]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("keeps them from a trusted proxy, and X-Forwarded-For becomes the nearest untrusted address", async () => {
    const send = await echo("127.0.0.1, 10.0.0.0/8");
    const seen = await send({ "x-forwarded-for": "198.51.100.1, 203.0.113.9, 10.1.2.3", "x-forwarded-host": "app.test", "x-forwarded-proto": "https" });
    expect([seen["x-forwarded-for"], seen["x-forwarded-host"], seen["x-forwarded-proto"]]).toEqual(["203.0.113.9", "app.test", "https"]);
    // Nothing forwarded: the client is the proxy's peer itself.
    expect((await send({}))["x-forwarded-for"]).toBe("127.0.0.1");
  });

  it("refuses a malformed TRUSTED_PROXIES entry by name", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, proxy.internal")).toThrow('TRUSTED_PROXIES: "proxy.internal" is not an address or CIDR range');
  });
});
