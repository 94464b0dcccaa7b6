// Private Postgres and Redis for fault injection (chaos tests, bench:chaos): the system's
// binaries, data under a temp folder, free ports, a migrated database. They can be stopped,
// restarted or flushed without touching the services anything else uses.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { privatePostgres, privateRedis } from "./services";
import { applyMigrations } from "@/lib/db/migrations";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const answers = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, "127.0.0.1");
  socket.once("connect", () => { socket.destroy(); resolve(true); });
  socket.once("error", () => resolve(false));
});

async function untilClosed(port: number) {
  for (let i = 0; i < 100 && (await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
}

export interface ChaosServices {
  databaseUrl: string;
  redisUrl: string;
  pgPort: number;
  redisPort: number;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  /** Stops Redis; it comes back empty (no persistence, as after a failover) unless its data is saved first. */
  stopRedis(opts?: { keepData?: boolean }): Promise<void>;
  startRedis(): Promise<void>;
  flushRedis(): Promise<void>;
  close(): void;
}

export async function startChaosServices(): Promise<ChaosServices> {
  const dir = mkdtempSync(join(tmpdir(), "rm-chaos-"));
  chmodSync(dir, 0o755); // as root, Postgres runs as the postgres user, which must reach its folder
  const [pgPort, redisPort] = [await freePort(), await freePort()];
  const pgDir = join(dir, "postgres");
  const redisDir = join(dir, "redis");
  const firstPostgres = await privatePostgres(pgPort, pgDir);
  const firstRedis = await privateRedis(redisPort, redisDir);
  if (!firstPostgres || !firstRedis) throw new Error("fault injection needs the postgres and redis-server binaries");
  let postgres = firstPostgres;
  let redis = firstRedis;

  const databaseUrl = postgres.url.replace(/\/postgres$/, "/chaos");
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "chaos"`);
  await admin.end();
  await applyMigrations(databaseUrl, { log: () => {} });

  return {
    databaseUrl, redisUrl: redis.url, pgPort, redisPort,
    async stopPostgres() { postgres.stop(); await untilClosed(pgPort); },
    async startPostgres() { postgres = (await privatePostgres(pgPort, pgDir))!; },
    async stopRedis(opts = {}) {
      if (opts.keepData) {
        const conn = new Redis(redis.url, { retryStrategy: () => null });
        conn.on("error", () => {});
        await conn.call("SHUTDOWN", "SAVE").catch(() => {});
        conn.disconnect();
      } else redis.stop();
      await untilClosed(redisPort);
    },
    async startRedis() { redis = (await privateRedis(redisPort, redisDir))!; },
    async flushRedis() {
      const conn = new Redis(redis.url);
      await conn.flushall();
      await conn.quit();
    },
    close() {
      redis.stop();
      postgres.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
