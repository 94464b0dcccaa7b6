import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";

export type GuardedAddress = { address: string; port: number };

// Addresses that mean "this machine" or its cloud metadata service, never another host.
const local = new BlockList();
local.addSubnet("127.0.0.0", 8, "ipv4");
local.addSubnet("0.0.0.0", 8, "ipv4");
local.addSubnet("169.254.0.0", 16, "ipv4");
local.addAddress("::1", "ipv6");
local.addAddress("::", "ipv6");
local.addSubnet("fe80::", 10, "ipv6");

function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
}

/**
 * Decides which resolved addresses an agent's traffic may go to. Local addresses are refused
 * except on ports the operator opens for a local service (a registry mirror, a model double);
 * the server's own Postgres, Redis and web ports are refused on every address they answer on.
 */
export class AddressGuard {
  private constructor(private readonly own: Set<string>, private readonly openLoopbackPorts: Set<number>) {}

  static async create(services: string[], openLoopbackPorts: number[]): Promise<AddressGuard> {
    const own = new Set<string>();
    const ownPorts = new Set<number>();
    for (const url of services) {
      const u = new URL(url);
      const port = Number(u.port || { "postgres:": 5432, "postgresql:": 5432, "redis:": 6379, "rediss:": 6379, "https:": 443 }[u.protocol] || 80);
      ownPorts.add(port);
      const host = u.hostname.replace(/^\[|\]$/g, "");
      const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
      for (const a of addresses) own.add(`${unmapped(a)}|${port}`);
    }
    // A service bound to every interface answers on this machine's other addresses too.
    const mine = Object.values(networkInterfaces()).flat().map((i) => i!.address);
    for (const port of ownPorts) for (const a of mine) own.add(`${unmapped(a)}|${port}`);
    return new AddressGuard(own, new Set(openLoopbackPorts.filter((p) => !ownPorts.has(p))));
  }

  /** Null when the address may be reached, else why not. */
  refusal({ address, port }: GuardedAddress): string | null {
    const a = unmapped(address);
    if (this.own.has(`${a}|${port}`)) return "the server's own service";
    const family = isIP(a) === 6 ? "ipv6" : "ipv4";
    if (local.check(a, family) && !(this.openLoopbackPorts.has(port) && a.startsWith("127."))) return "a local address";
    return null;
  }
}
