// Shared set-up for benchmarks: a private database and key prefix on the local services,
// worker processes, and figures printed as plain lines.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { findServices, withDatabase } from "@/scripts/services";

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
  // Drops the database and the bench's Redis keys (queues, streams) under its prefix.
  const drop = async () => {
    const redis = new Redis(env.REDIS_URL);
    for (let cursor = "0"; ;) {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${env.REDIS_PREFIX}:*`, "COUNT", 1000);
      if (keys.length) await redis.del(...keys);
      if ((cursor = next) === "0") break;
    }
    await redis.quit();
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

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).filter((n) => n !== "generated").map((n) => newestMtime(join(path, n))));
}

/**
 * A production build of the web app in its own folder (so a bench never disturbs `.next`),
 * rebuilt when the sources are newer. `next build` with a custom dist dir adds that folder
 * to tsconfig.json's include list; the file is put back as it was.
 */
export function ensureBuild(dist: string): void {
  const id = join(root, dist, "BUILD_ID");
  const built = existsSync(id) ? statSync(id).mtimeMs : 0;
  if (built > Math.max(...["app", "lib", "auth.ts", "next.config.ts"].map((p) => newestMtime(join(root, p))))) return;
  console.log(`building the app into ${dist}…`);
  const tsconfig = readFileSync(join(root, "tsconfig.json"), "utf8");
  try {
    const build = spawnSync(join(root, "node_modules", ".bin", "next"), ["build", "--webpack"], {
      cwd: root, stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: dist, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) throw new Error("next build failed");
  } finally {
    writeFileSync(join(root, "tsconfig.json"), tsconfig);
  }
}
