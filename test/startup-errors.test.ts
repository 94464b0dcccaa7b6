import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const run = (script: string, env: Record<string, string>) =>
  spawnSync(process.execPath, ["--import", "tsx", script], {
    cwd: root, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000,
  });

describe("a misconfiguration gives one clear line, not a stack trace", () => {
  it("npm start waits for an unreachable DATABASE_URL, saying so without its password, then names it", () => {
    const r = run("scripts/start.ts", { DATABASE_URL: "postgresql://postgres:hunter2-secret@127.0.0.1:1/nothing", SERVICES_WAIT_S: "1" });
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split("\n")).toEqual(["[ringmaster] waiting for Postgres at 127.0.0.1:1…"]);
    expect(r.stdout + r.stderr).not.toContain("hunter2-secret");
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/DATABASE_URL does not answer .* Fix the URL in \.env or unset it/);
  });

  it("npm start names an unreachable REDIS_URL", () => {
    const r = run("scripts/start.ts", { REDIS_URL: "redis://127.0.0.1:1", SERVICES_WAIT_S: "1" });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("[ringmaster] waiting for Redis at 127.0.0.1:1…");
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/REDIS_URL does not answer/);
  });

  it("the workers name a malformed variable", () => {
    const r = run("workers/main.ts", { DATABASE_URL: "not-a-url" });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe("Invalid configuration: DATABASE_URL must be a postgresql:// URL");
  });
});
