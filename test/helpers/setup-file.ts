// Runs before each integration test file, in its own process: a private database copied
// from the migrated template and a private Redis key prefix, removed afterwards.
import { randomBytes } from "node:crypto";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, inject } from "vitest";
import { Redis } from "ioredis";
import { adminQuery, databaseUrl, dropDatabaseSql } from "./pg";

const name = `rm_test_${process.pid}_${randomBytes(3).toString("hex")}`;
const prefix = `rmtest-${name}`;
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${inject("templateDatabase")}"`);
Object.assign(process.env, {
  DATABASE_URL: databaseUrl(name),
  REDIS_URL: redisUrl,
  REDIS_PREFIX: prefix,
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
  NODE_ENV: "test",
  // Retries wait no backoff unless a test asks for one (the backoff has its own tests).
  RETRY_BACKOFF_MS: process.env.RETRY_BACKOFF_MS ?? "0",
  DATA_DIR: mkdtempSync(join(tmpdir(), "rm-data-")),
  // Local repositories of the tests live here (tempRepoPath in fixtures.ts); realpath, as projects store it.
  REPO_ROOTS: realpathSync(mkdtempSync(join(tmpdir(), "rm-repos-"))),
});

afterAll(async () => {
  const [{ closeQueues }, { closeRedis }, { closeDb }] = await Promise.all([
    import("@/lib/queues"), import("@/lib/redis/connections"), import("@/lib/db"),
  ]);
  await closeQueues();
  await closeRedis();
  await closeDb();
  await adminQuery(dropDatabaseSql(name));
  const redis = new Redis(redisUrl);
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== "0");
  await redis.quit();
});
