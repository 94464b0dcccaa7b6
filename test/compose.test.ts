import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// No Docker engine runs here, so the compose file users rely on is checked by parsing it.
const compose = parse(readFileSync(join(import.meta.dirname, "..", "docker-compose.yml"), "utf8"));

describe("docker-compose.yml", () => {
  it("runs Postgres 16 and Redis 7 (noeviction) with healthchecks on loopback ports", () => {
    const { postgres, redis } = compose.services;
    expect(postgres.image).toBe("postgres:16");
    expect(redis.image).toBe("redis:7");
    expect(redis.command.join(" ")).toContain("--maxmemory-policy noeviction");
    for (const svc of [postgres, redis]) {
      expect(svc.healthcheck.test.length).toBeGreaterThan(0);
      for (const port of svc.ports) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
  });

  it("builds web and worker from the Dockerfile, after healthy databases", () => {
    const { web, worker } = compose.services;
    expect(web.build).toBe(".");
    expect(worker.build).toBe(".");
    expect(web.depends_on.postgres.condition).toBe("service_healthy");
    expect(web.depends_on.redis.condition).toBe("service_healthy");
    expect(worker.command.join(" ")).toContain("workers/main.ts");
    expect(web.environment.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(web.ports[0]).toMatch(/^127\.0\.0\.1:3000:3000$/);
  });
});
