// Shared set-up for benchmarks: a private database and key prefix on the local services,
// worker processes, and figures printed as plain lines.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { findServices, withDatabase } from "@/scripts/services";

export const root = join(import.meta.dirname, "..");

// A bench stopped by a signal still stops what it started: exiting runs the "exit" handlers that
// kill its web and worker processes (a signal's default action skips them, and the orphans went
// on spending the cores every later measurement shares).
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]] as const) process.once(signal, () => process.exit(code));

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

export function startWorkers(count: number, env: Record<string, string>, nodeArgs: string[] = []): ChildProcess[] {
  const workers = Array.from({ length: count }, (_, i) =>
    spawn(process.execPath, [...nodeArgs, "--import", "tsx", "workers/main.ts"], {
      cwd: root, env: { ...process.env, ...env, WORKER_ID: `bench-${i}`, LOG_LEVEL: "info" }, stdio: ["ignore", "pipe", "inherit"],
    }));
  // A bench that fails (a wait timed out) leaves no worker running behind it to load the next one.
  process.once("exit", () => { for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL"); });
  return workers;
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

/** Every source file the web build reads, by content: a checkout of older files is a change too. */
function sourceStamp(): string {
  const hash = createHash("sha256");
  const walk = (path: string) => {
    if (!existsSync(path)) return;
    if (!statSync(path).isDirectory()) {
      hash.update(path).update("\0").update(readFileSync(path)).update("\0");
      return;
    }
    for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  for (const p of ["app", "lib", "auth.ts", "next.config.ts", "package-lock.json"]) walk(join(root, p));
  return hash.digest("hex");
}

export function ensureBuild(dist: string): void {
  const stampFile = join(root, dist, "SOURCE_STAMP");
  const stamp = sourceStamp();
  if (existsSync(join(root, dist, "BUILD_ID")) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return;
  console.log(`building the app into ${dist}…`);
  // A build over an older one's output can keep stale pages: start from nothing.
  rmSync(join(root, dist), { recursive: true, force: true });
  const tsconfig = readFileSync(join(root, "tsconfig.json"), "utf8");
  try {
    const build = spawnSync(join(root, "node_modules", ".bin", "next"), ["build", "--webpack"], {
      cwd: root, stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: dist, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) throw new Error("next build failed");
    writeFileSync(stampFile, stamp);
  } finally {
    writeFileSync(join(root, "tsconfig.json"), tsconfig);
  }
}
