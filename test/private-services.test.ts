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
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("private service instances", () => {
  it("starts Postgres under DATA_DIR, answers queries, and stops", async () => {
    const own = await privatePostgres(54391);
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
    const own = await privateRedis(63791);
    expect(own).not.toBeNull();
    const redis = new Redis(own!.url);
    expect(await redis.config("GET", "maxmemory-policy")).toEqual(["maxmemory-policy", "noeviction"]);
    redis.disconnect();
    own!.stop();
    await new Promise((r) => setTimeout(r, 300));
    const probe = new Redis(own!.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on("error", () => {});
    await expect(probe.connect()).rejects.toThrow();
  });
});
