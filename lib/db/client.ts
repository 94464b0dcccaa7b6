import pg from "pg";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/log";
import { PrismaClient } from "@/lib/db/generated/client";
import { GuardedPrismaPg } from "@/lib/db/adapter";

export type Db = InstanceType<typeof PrismaClient>;

// One pool and one Prisma client per process, kept on globalThis so
// Next's dev reloads do not open a new pool on every edit. The pool is also handed out
// for the few hot statements (the idle tick) where Prisma's per-query CPU would dominate.
const holder = globalThis as unknown as { __ringmasterDb?: { db: Db; pool: pg.Pool } };

export function createDb(databaseUrl: string, poolSize = 10): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle connection dropped by the server (Postgres restarted, database dropped) is
  // replaced on next use; without a listener the pool's error event would kill the process.
  pool.on("error", (err) => getLogger("db").warn({ err: err.message }, "idle Postgres connection lost"));
  // A checked-out connection has no pool listener: one killed between two statements (a
  // Postgres restart during a transaction that waits on git or Redis) would emit an unhandled
  // 'error' and end the process. Its next statement fails instead, and the pool drops it.
  pool.on("connect", (client) => client.on("error", (err) => getLogger("db").warn({ err: err.message }, "Postgres connection lost")));
  return { db: new PrismaClient({ adapter: new GuardedPrismaPg(pool) }), pool };
}

function instance() {
  holder.__ringmasterDb ??= createDb(getEnv().DATABASE_URL);
  return holder.__ringmasterDb;
}

export const getDb = (): Db => instance().db;
export const getPool = (): pg.Pool => instance().pool;

export async function closeDb(): Promise<void> {
  const current = holder.__ringmasterDb;
  holder.__ringmasterDb = undefined;
  if (!current) return;
  await current.db.$disconnect();
  await current.pool.end();
}
