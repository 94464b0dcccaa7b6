// A web server of its own on a fresh, migrated database without users, for the specs that need
// one (the first sign-up, GitHub sign-in, a restart): the shared app stays as it is.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { test } from "@playwright/test";

const root = join(import.meta.dirname, "..");
export const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { return (await c.query<T>(sql, values)).rows; } finally { await c.end(); }
}

export class FreshApp {
  readonly port: number;
  readonly base: string;
  readonly dbUrl: string;
  /** Its data folder (repositories under repos/), made by create(). */
  dataDir = "";
  private readonly dbName: string;
  private readonly env: NodeJS.ProcessEnv;
  private server: ChildProcess | null = null;

  /** `portOffset` above the shared app's port; `name` tells the databases and Redis prefixes apart. */
  constructor(portOffset: number, name: string) {
    this.port = Number(process.env.E2E_PORT ?? 3210) + portOffset;
    this.base = `http://127.0.0.1:${this.port}`;
    this.dbName = `rm_e2e_${name}_${process.pid}_${randomBytes(3).toString("hex")}`;
    const u = new URL(adminUrl);
    u.pathname = `/${this.dbName}`;
    this.dbUrl = u.toString();
    this.env = {
      ...process.env, NODE_ENV: "production", DATABASE_URL: this.dbUrl, AUTH_SECRET: randomBytes(32).toString("hex"),
      APP_URL: this.base, REDIS_PREFIX: `rme2e-${name}-${process.pid}`, LOG_LEVEL: "warn", TICK_SCHEDULES: "off",
    };
  }

  /** Creates the data folder, and the database, migrated. */
  async create() {
    this.dataDir = this.env.DATA_DIR = mkdtempSync(join(tmpdir(), "ringmaster-e2e-fresh-"));
    await query(adminUrl, `CREATE DATABASE "${this.dbName}"`);
    const migrated = spawnSync(join(root, "node_modules", ".bin", "tsx"), ["scripts/db/migrate.ts"], { cwd: root, env: this.env, stdio: ["ignore", "ignore", "inherit"] });
    if (migrated.status !== 0) throw new Error(`migrating ${this.dbName} failed`);
  }

  /** Starts the web server (`scripts/web.ts`, as `npm start` does), with `env` from now on, and waits for it to answer. */
  async start(env: Record<string, string> = {}) {
    Object.assign(this.env, env);
    const server = (this.server = spawn(process.execPath, ["--import", "tsx", "scripts/web.ts", "-p", String(this.port), "-H", "127.0.0.1"], { cwd: root, env: this.env, stdio: "inherit" }));
    const deadline = Date.now() + 60_000;
    for (;;) {
      try { if ((await fetch(`${this.base}/api/health`)).status < 600) return; } catch { /* starting */ }
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the app on ${this.base} did not start`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Sends the web server `signal` and says how it ended (its exit code, or the signal that killed it). */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const server = this.server;
    this.server = null;
    if (!server || server.exitCode !== null || server.signalCode !== null) return { code: server?.exitCode ?? null, signal: server?.signalCode ?? null };
    return new Promise((resolve) => {
      server.once("exit", (code, sig) => resolve({ code, signal: sig }));
      server.kill(signal);
    });
  }

  /** Stops the server, drops the database and removes the data folder. */
  async remove() {
    await this.stop();
    await query(adminUrl, `DROP DATABASE IF EXISTS "${this.dbName}" WITH (FORCE)`);
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A fresh app for the spec file that calls this: started before its tests, removed after them. */
export function useFreshApp(portOffset: number, name: string): FreshApp {
  const web = new FreshApp(portOffset, name);
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    await web.create();
    await web.start();
  });
  test.afterAll(() => web.remove());
  return web;
}
