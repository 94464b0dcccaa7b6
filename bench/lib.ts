// Shared set-up for benchmarks: a private database and key prefix on the local services,
// worker processes, and figures printed as plain lines.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { findServices, withDatabase } from "../scripts/services";

export const root = join(import.meta.dirname, "..");

export async function benchEnvironment(name: string) {
  const services = await findServices(() => {});
  const db = `rm_bench_${name}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: services.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${db}"`);
  await admin.end();
  const env = {
    DATABASE_URL: withDatabase(services.adminUrl, db),
    REDIS_URL: services.redisUrl,
    REDIS_PREFIX: `rmbench-${db}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), "rm-bench-")),
    LOG_LEVEL: "warn",
  };
  Object.assign(process.env, env);
  const { applyMigrations } = await import("@/lib/db/migrations");
  await applyMigrations(env.DATABASE_URL, { log: () => {} });
  const drop = async () => {
    const c = new pg.Client({ connectionString: services.adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    await c.end();
    services.stop();
  };
  return { env, drop };
}

export function startWorkers(count: number, env: Record<string, string>): ChildProcess[] {
  return Array.from({ length: count }, (_, i) =>
    spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], {
      cwd: root, env: { ...process.env, ...env, WORKER_ID: `bench-${i}`, LOG_LEVEL: "info" }, stdio: ["ignore", "pipe", "inherit"],
    }));
}

export async function workersReady(workers: ChildProcess[]): Promise<void> {
  await Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => {
    let out = "";
    w.stdout!.on("data", (c) => { out += c; if (out.includes("workers started")) resolve(); });
    w.once("exit", () => reject(new Error("a worker exited during start-up")));
  })));
}

export async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(workers.map((w) => w.exitCode !== null ? null : new Promise((r) => { w.once("exit", r); w.kill("SIGTERM"); })));
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const median = (values: number[]) => percentile(values, 50);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
