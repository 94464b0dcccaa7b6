import { chmod } from "node:fs/promises";
import { connect, createServer, isIP, type LookupFunction } from "node:net";
import { lookup } from "node:dns";
import { Server, RequestError } from "proxy-chain";
import { isEgressAllowed, type NetworkPolicy } from "@/lib/sandbox/policy";
import type { AddressGuard } from "@/lib/sandbox/address-guard";

export type EgressCounts = { allowed: Record<string, number>; blocked: Record<string, number> };

export type EgressProxy = { counts: () => EgressCounts; close: () => Promise<void> };

/**
 * The sandbox's only way out: an HTTP(S) proxy on a Unix socket that admits the hosts its
 * run's policy allows, refuses local and server addresses after resolving them (so a name
 * that resolves to 127.0.0.1 fares no better than the address), and counts both per host.
 */
export async function startEgressProxy(opts: { socketPath: string; policy: NetworkPolicy; guard: AddressGuard }): Promise<EgressProxy> {
  const counts: EgressCounts = { allowed: {}, blocked: {} };
  const count = (kind: keyof EgressCounts, host: string) => { counts[kind][host] = (counts[kind][host] ?? 0) + 1; };
  const refuse = (host: string, why: string): never => {
    count("blocked", host);
    throw new RequestError(`Ringmaster egress policy: ${host} is blocked (${why})`, 403);
  };

  const server = new Server({
    port: 0,
    host: "127.0.0.1",
    prepareRequestFunction: ({ hostname, port, isHttp, request }) => {
      const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
      if (!isEgressAllowed(opts.policy, host, isHttp ? request.method ?? "GET" : "CONNECT")) refuse(host, "not on this project's allow-list");
      if (isIP(host)) {
        const why = opts.guard.refusal({ address: host, port });
        if (why) refuse(host, why);
        count("allowed", host);
        return {};
      }
      // proxy-chain types the hook as dns.lookup itself; a LookupFunction is what net.connect calls.
      return { dnsLookup: guardedLookup(host, port, opts.guard, count) as unknown as typeof lookup };
    },
  });
  await server.listen();
  // proxy-chain refuses connections without a remote address, which Unix sockets lack, so the
  // socket relays to it on loopback (unreachable from inside: the sandbox has its own network).
  const relay = createServer((inbound) => {
    const outbound = connect(server.port, "127.0.0.1");
    inbound.pipe(outbound).pipe(inbound);
    inbound.on("close", () => outbound.destroy());
    outbound.on("close", () => inbound.destroy());
    inbound.on("error", () => outbound.destroy());
    outbound.on("error", () => inbound.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    relay.once("error", reject);
    relay.listen(opts.socketPath, () => resolve());
  });
  // The sandboxed user connects to it; only its own sandbox has the socket's folder mounted.
  await chmod(opts.socketPath, 0o666);
  return {
    counts: () => structuredClone(counts),
    close: async () => {
      await new Promise((resolve) => relay.close(resolve));
      await server.close(true);
    },
  };
}

function guardedLookup(host: string, port: number, guard: AddressGuard, count: (kind: keyof EgressCounts, host: string) => void): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const refused = addresses.map((a) => guard.refusal({ address: a.address, port })).find(Boolean);
      if (refused || addresses.length === 0) {
        count("blocked", host);
        return callback(Object.assign(new Error(`${host} resolves to ${refused ?? "nothing"}`), { code: "ENOTFOUND" }), "", 0);
      }
      count("allowed", host);
      if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
