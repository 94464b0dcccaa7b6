import { BlockList, isIP } from "node:net";
import type { IncomingHttpHeaders } from "node:http";

// X-Forwarded-* and X-Real-IP are whatever a client typed unless a proxy we run wrote them.
// At the edge (the web server, before Next.js sees the request) they are dropped from any
// other peer, and Next.js fills them in from the socket; the app then trusts what it reads.
const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip", "forwarded"];

const plain = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");

/** TRUSTED_PROXIES: addresses and CIDR ranges, comma separated (e.g. "10.0.0.0/8, 127.0.0.1"). */
export function parseTrustedProxies(list: string): BlockList {
  const trusted = new BlockList();
  for (const entry of list.split(",").map((e) => e.trim()).filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (!isIP(address) || (bits !== undefined && !/^\d{1,3}$/.test(bits))) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or CIDR range`);
    if (bits === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, Number(bits), family);
  }
  return trusted;
}

function isTrusted(trusted: BlockList, address: string): boolean {
  const ip = plain(address);
  const family = isIP(ip);
  return family !== 0 && trusted.check(ip, family === 6 ? "ipv6" : "ipv4");
}

/**
 * Rewrites a request's forwarded headers in place: kept only when the peer is a trusted proxy,
 * and then X-Forwarded-For shrinks to the client, the nearest address no trusted proxy wrote.
 */
export function sanitizeForwarded(headers: IncomingHttpHeaders, peer: string | undefined, trusted: BlockList): void {
  if (!peer || !isTrusted(trusted, peer)) {
    for (const name of FORWARDED) delete headers[name];
    return;
  }
  const chain = [...String(headers["x-forwarded-for"] ?? "").split(",").map((a) => a.trim()).filter(Boolean), plain(peer)];
  const client = [...chain].reverse().find((a) => !isTrusted(trusted, a)) ?? chain[0];
  headers["x-forwarded-for"] = client;
  delete headers["x-real-ip"];
  delete headers.forwarded;
}
