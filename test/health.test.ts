import { describe, expect, it } from "vitest";
import { checkHealth } from "@/lib/health";
import { GET } from "@/app/api/health/route";

describe("GET /api/health", () => {
  it("answers 200 with both services up", async () => {
    const res = await GET();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, postgres: "up", redis: "up", errors: [] });
  });

  it("answers 503 naming Redis when it does not answer", async () => {
    const { closeRedis } = await import("@/lib/redis/connections");
    await closeRedis();
    const before = process.env.REDIS_URL;
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    const { getEnv } = await import("@/lib/env");
    // getEnv is memoized per process; this file's process owns it, so re-read is explicit.
    Object.assign(getEnv(), { REDIS_URL: process.env.REDIS_URL });
    try {
      const health = await checkHealth(500);
      expect(health.ok).toBe(false);
      expect(health.postgres).toBe("up");
      expect(health.redis).toBe("down");
      expect(health.errors[0]).toMatch(/^redis: /);
    } finally {
      await closeRedis();
      Object.assign(getEnv(), { REDIS_URL: before });
    }
  });
});
