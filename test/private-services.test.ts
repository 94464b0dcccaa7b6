import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Redis } from "ioredis";

// The last resort of `npm start` when no Postgres or Redis answers: private instances from
// the system's binaries, with their data under DATA_DIR, stopped with the start command.
const dataDir = mkdtempSync(join(tmpdir(), "rm-private-"));
chmodSync(dataDir, 0o755);
process.env.DATA_DIR = dataDir;
const { privatePostgres, privateRedis } = await import("@/scripts/services");
const { freePort } = await import("@/scripts/chaos-services");
const { waitUntil } = await import("./helpers/fixtures");
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("private service instances", () => {
  it("starts Postgres under DATA_DIR, answers queries, and stops", async () => {
    // Free ports: a fixed one may be taken by another run of this file on the same machine.
    const own = await privatePostgres(await freePort());
    expect(own).not.toBeNull();
    const client = new pg.Client({ connectionString: own!.url });
    await client.connect();
    expect((await client.query("SELECT 1 AS one")).rows[0].one).toBe(1);
    await client.end();
    own!.stop();
    const after = new pg.Client({ connectionString: own!.url, connectionTimeoutMillis: 1000 });
    await expect(after.connect()).rejects.toThrow();
  }, 60_000);

  it("starts Redis with noeviction, and stops", async () => {
    const own = await privateRedis(await freePort());
    expect(own).not.toBeNull();
    const redis = new Redis(own!.url);
    expect(await redis.config("GET", "maxmemory-policy")).toEqual(["maxmemory-policy", "noeviction"]);
    redis.disconnect();
    own!.stop();
    // stop() signals redis-server, which exits a moment later (longer on a loaded machine than the
    // fixed 300 ms this waited): wait until a connection is refused.
    await waitUntil("Redis to refuse connections", async () => {
      const probe = new Redis(own!.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
      probe.on("error", () => {});
      const refused = await probe.connect().then(() => false, () => true);
      probe.disconnect();
      return refused;
    });
  });
});
