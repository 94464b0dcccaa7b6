// Postgres dropping connections in the middle of interactive transactions (a restart, a
// failover, pg_terminate_backend) must not use up the pool: @prisma/adapter-pg alone never
// hands such a connection back, and a worker whose pool is used up waits forever.
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { isDatabaseUnreachable } from "@/lib/db/unreachable";

const POOL = 2;
const victim = createDb(getEnv().DATABASE_URL, POOL);
const admin = createDb(getEnv().DATABASE_URL, 1);
afterAll(async () => {
  await victim.db.$disconnect();
  await Promise.all([victim.pool.end(), admin.pool.end()]);
});

const backendPid = async (tx: { $queryRaw: typeof victim.db.$queryRaw }) =>
  (await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0].pid;
const terminate = (pid: number) => admin.pool.query("SELECT pg_terminate_backend($1)", [pid]);

describe("connections Postgres terminates mid-transaction", () => {
  it("go back to the pool as dead: after more losses than the pool has connections, queries and transactions still answer", async () => {
    for (let i = 0; i < POOL * 3; i++) {
      // Cut between two statements of the transaction…
      const between = await victim.db.$transaction(async (tx) => {
        await terminate(await backendPid(tx));
        await tx.$queryRaw`SELECT 1`;
      }).catch((e: unknown) => e);
      expect(isDatabaseUnreachable(between)).toBe(true);
      // …and right before its COMMIT.
      const beforeCommit = await victim.db.$transaction(async (tx) => {
        await terminate(await backendPid(tx));
      }).catch((e: unknown) => e);
      expect(beforeCommit).toBeInstanceOf(Error);
    }
    // No connection is still checked out by a transaction that ended.
    expect(victim.pool.totalCount - victim.pool.idleCount).toBe(0);
    expect(victim.pool.waitingCount).toBe(0);
    expect(await victim.db.$queryRaw<{ one: number }[]>`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    const both = await Promise.all(Array.from({ length: POOL }, () => victim.db.$transaction(async (tx) => backendPid(tx))));
    expect(both).toHaveLength(POOL);
  });
});
