import { describe, expect, it } from "vitest";
import { AddressGuard } from "@/lib/sandbox/address-guard";

describe("AddressGuard", () => {
  const services = ["postgresql://postgres@127.0.0.1:5432/db", "redis://localhost:6379", "http://localhost:3000"];

  it("refuses this machine and its metadata service, but opens the operator's loopback ports", async () => {
    const guard = await AddressGuard.create(services, [8080]);
    expect(guard.refusal({ address: "127.0.0.1", port: 22 })).toBe("a local address");
    expect(guard.refusal({ address: "::ffff:127.0.0.2", port: 80 })).toBe("a local address");
    expect(guard.refusal({ address: "::1", port: 443 })).toBe("a local address");
    expect(guard.refusal({ address: "169.254.169.254", port: 80 })).toBe("a local address");
    expect(guard.refusal({ address: "0.0.0.0", port: 80 })).toBe("a local address");
    expect(guard.refusal({ address: "127.0.0.1", port: 8080 })).toBeNull();
    expect(guard.refusal({ address: "93.184.215.14", port: 443 })).toBeNull();
  });

  it("never opens the server's own ports, even when the operator lists them", async () => {
    const guard = await AddressGuard.create(services, [5432, 6379, 3000]);
    expect(guard.refusal({ address: "127.0.0.1", port: 5432 })).toBe("the server's own service");
    expect(guard.refusal({ address: "127.0.0.1", port: 6379 })).toBe("the server's own service");
    expect(guard.refusal({ address: "127.0.0.1", port: 3000 })).toBe("the server's own service");
    expect(guard.refusal({ address: "127.0.0.1", port: 5433 })).toBe("a local address");
  });
});
