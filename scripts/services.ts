// Finds or starts the Postgres and Redis that Ringmaster needs, in the order the README
// promises: explicit URLs, local defaults, docker compose, private instances under .data/.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pg from "pg";
import { Redis } from "ioredis";

export interface Services {
  databaseUrl: string;
  adminUrl: string;
  redisUrl: string;
  stop: () => void;
}

const root = resolve(import.meta.dirname, "..");
const dataDir = resolve(root, process.env.DATA_DIR ?? ".data");

export class SetupError extends Error {}

async function postgresAnswers(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisAnswers(url: string): Promise<string | null> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null });
  redis.on("error", () => {});
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    redis.disconnect();
  }
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
}

function dockerEngineAnswers(): boolean {
  const r = spawnSync("docker", ["info", "--format", "{{.ServerVersion}}"], { stdio: "ignore", timeout: 5000 });
  return r.status === 0;
}

function findBinary(name: string): string | null {
  const candidates = [
    ...(process.env.PATH ?? "").split(":").map((d) => join(d, name)),
    ...(existsSync("/usr/lib/postgresql")
      ? readdirSync("/usr/lib/postgresql").sort().reverse().map((v) => join("/usr/lib/postgresql", v, "bin", name))
      : []),
  ];
  return candidates.find((c) => c && existsSync(c)) ?? null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => Promise<string | null>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string | null = "not tried";
  while (Date.now() < deadline) {
    last = await check();
    if (!last) return;
    await sleep(300);
  }
  throw new SetupError(`${what} did not come up: ${last}`);
}

// Postgres refuses to run as root; as root, the private cluster belongs to the `postgres` user.
function asPostgresUser(dir: string): { run: (bin: string, args: string[]) => [string, string[]] } {
  if (process.getuid?.() !== 0) return { run: (bin, args) => [bin, args] };
  if (spawnSync("id", ["-u", "postgres"], { stdio: "ignore" }).status !== 0) {
    throw new SetupError("Postgres cannot run as root and there is no `postgres` user: run `npm start` as a normal user, or set DATABASE_URL.");
  }
  execFileSync("chown", ["-R", "postgres", dir]);
  // The postgres user passes through the (otherwise private) data folder to its own subfolder.
  if ((statSync(dataDir).mode & 0o001) === 0) {
    execFileSync("chgrp", ["postgres", dataDir]);
    chmodSync(dataDir, 0o710);
  }
  if (spawnSync("runuser", ["-u", "postgres", "--", "test", "-w", dir], { stdio: "ignore" }).status !== 0) {
    throw new SetupError(`Postgres cannot run as root, and the postgres user cannot reach ${dir}: run \`npm start\` as a normal user, set DATA_DIR to a folder the postgres user can reach, or set DATABASE_URL.`);
  }
  return { run: (bin, args) => ["runuser", ["-u", "postgres", "--", bin, ...args]] };
}

export async function privatePostgres(port = 54329, dir = join(dataDir, "postgres")): Promise<{ url: string; stop: () => void } | null> {
  const initdb = findBinary("initdb");
  const pgCtl = findBinary("pg_ctl");
  if (!initdb || !pgCtl) return null;
  ensureDataDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { run } = asPostgresUser(dir);
  const exec = (bin: string, args: string[]) => {
    const [cmd, argv] = run(bin, args);
    return spawnSync(cmd, argv, { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  };
  if (!existsSync(join(dir, "PG_VERSION"))) {
    const init = exec(initdb, ["-D", dir, "-U", "postgres", "--auth=trust", "--no-sync"]);
    if (init.status !== 0) throw new SetupError(`initdb failed: ${init.stderr.trim().split("\n").at(-1)}`);
  }
  const start = exec(pgCtl, ["-D", dir, "-l", join(dir, "server.log"), "-w", "-o", `-p ${port} -k ${dir} -h 127.0.0.1`, "start"]);
  if (start.status !== 0) throw new SetupError(`the private Postgres did not start: see ${join(dir, "server.log")}`);
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  await waitFor(() => postgresAnswers(url), "private Postgres");
  return { url, stop: () => void exec(pgCtl, ["-D", dir, "-m", "fast", "-w", "stop"]) };
}

export async function privateRedis(port = 63799, dir = join(dataDir, "redis")): Promise<{ url: string; stop: () => void } | null> {
  const bin = findBinary("redis-server");
  if (!bin) return null;
  ensureDataDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir,
    "--save", "", "--appendonly", "no", "--maxmemory-policy", "noeviction"], { stdio: "ignore" });
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(() => redisAnswers(url), "private Redis");
  return { url, stop: () => void child.kill("SIGTERM") };
}

const address = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol.startsWith("redis") ? "6379" : "5432")}`;
};

// A configured service may be starting too (a managed database after a restart, compose):
// say once what we wait for (never the URL: it may hold a password), retry with backoff
// for SERVICES_WAIT_S (default 60), then give up with the last error.
async function patiently(check: () => Promise<string | null>, what: string, log: (line: string) => void): Promise<string | null> {
  const deadline = Date.now() + Number(process.env.SERVICES_WAIT_S ?? 60) * 1000;
  let err = await check();
  if (err) log(`waiting for ${what}…`);
  for (let delay = 250; err && Date.now() < deadline; delay = Math.min(delay * 2, 5000)) {
    await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    err = await check();
  }
  return err;
}

function compose(service: "postgres" | "redis"): boolean {
  const r = spawnSync("docker", ["compose", "up", "-d", "--wait", service], { cwd: root, stdio: "inherit" });
  return r.status === 0;
}

export async function findServices(log: (line: string) => void, databaseName = "ringmaster"): Promise<Services> {
  const stops: Array<() => void> = [];
  let docker: boolean | undefined;
  const dockerOk = () => (docker ??= dockerEngineAnswers());

  let adminUrl: string;
  let databaseUrl: string;
  if (process.env.DATABASE_URL) {
    databaseUrl = process.env.DATABASE_URL;
    const err = await patiently(() => postgresAnswers(databaseUrl), `Postgres at ${address(databaseUrl)}`, log);
    if (err) throw new SetupError(`DATABASE_URL does not answer (${err}). Fix the URL in .env or unset it to let Ringmaster find or start Postgres.`);
    adminUrl = databaseUrl;
  } else {
    const local = "postgresql://postgres@127.0.0.1:5432/postgres";
    if (!(await postgresAnswers(local))) {
      adminUrl = local;
      log("postgres: using the local server on 127.0.0.1:5432");
    } else if (dockerOk() && compose("postgres")) {
      adminUrl = "postgresql://postgres:postgres@127.0.0.1:5432/postgres";
      await waitFor(() => postgresAnswers(adminUrl), "docker compose Postgres");
      log("postgres: started with docker compose");
    } else {
      const own = await privatePostgres();
      if (!own) throw new SetupError("No PostgreSQL found. Install PostgreSQL 15+ (Debian/Ubuntu: `sudo apt-get install postgresql`; macOS: `brew install postgresql@16`), start Docker, or set DATABASE_URL in .env.");
      adminUrl = own.url;
      stops.push(own.stop);
      log(`postgres: started a private instance in ${join(dataDir, "postgres")}`);
    }
    await ensureDatabase(adminUrl, databaseName);
    databaseUrl = withDatabase(adminUrl, databaseName);
  }

  let redisUrl: string;
  if (process.env.REDIS_URL) {
    redisUrl = process.env.REDIS_URL;
    const err = await patiently(() => redisAnswers(redisUrl), `Redis at ${address(redisUrl)}`, log);
    if (err) throw new SetupError(`REDIS_URL does not answer (${err}). Fix the URL in .env or unset it to let Ringmaster find or start Redis.`);
  } else if (!(await redisAnswers("redis://127.0.0.1:6379"))) {
    redisUrl = "redis://127.0.0.1:6379";
    log("redis: using the local server on 127.0.0.1:6379");
  } else if (dockerOk() && compose("redis")) {
    redisUrl = "redis://127.0.0.1:6379";
    await waitFor(() => redisAnswers(redisUrl), "docker compose Redis");
    log("redis: started with docker compose");
  } else {
    const own = await privateRedis();
    if (!own) throw new SetupError("No Redis found. Install Redis 7 (Debian/Ubuntu: `sudo apt-get install redis-server`; macOS: `brew install redis`), start Docker, or set REDIS_URL in .env.");
    redisUrl = own.url;
    stops.push(own.stop);
    log(`redis: started a private instance on ${redisUrl}`);
  }

  return { databaseUrl, adminUrl, redisUrl, stop: () => stops.reverse().forEach((s) => s()) };
}

export function loadDotEnv(): void {
  const file = join(root, ".env");
  if (existsSync(file)) process.loadEnvFile(file);
}

/** The data folder, created private (0700): it holds the secrets below, clones and worktrees. */
function ensureDataDir(): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

export function persistentSecret(name: string): string {
  const file = join(dataDir, name);
  ensureDataDir();
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

export { root, dataDir };
