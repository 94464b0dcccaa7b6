// A run's preparation waits out Postgres dropping its connection (a restart, a failover) and
// fails at once on an error Postgres answered; the errors here are real ones, not built by hand.
import { afterAll, describe, expect, it } from "vitest";
import { createDb, getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { isDatabaseUnreachable } from "@/lib/db/unreachable";
import { whenPostgresAnswers } from "@/lib/runs/backoff";

const closedPort = createDb("postgresql://postgres@127.0.0.1:1/postgres", 1);
const admin = createDb(getEnv().DATABASE_URL, 1);
const victim = createDb(getEnv().DATABASE_URL, 8);
afterAll(async () => {
  await Promise.all([closedPort.pool.end(), admin.pool.end(), victim.pool.end()]);
});

// A statement whose connection the server terminates mid-transaction (SQLSTATE 57P01).
async function terminatedMidTransaction() {
  await victim.db.$transaction(async (tx) => {
    const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    await admin.pool.query("SELECT pg_terminate_backend($1)", [pid]);
    await tx.$queryRaw`SELECT 1`;
  });
}

describe("waiting out a Postgres outage", () => {
  it("tells a lost or refused connection from an error Postgres answered", async () => {
    const terminated = await terminatedMidTransaction().catch((e: unknown) => e);
    const refused = await closedPort.db.team.findMany().catch((e: unknown) => e);
    const refusedRaw = await closedPort.pool.query("SELECT 1").catch((e: unknown) => e);
    const answered = await getDb().$queryRawUnsafe("SELECT * FROM no_such_table").catch((e: unknown) => e);
    const divided = await getDb().$queryRawUnsafe("SELECT 1/0").catch((e: unknown) => e);
    expect([terminated, refused, refusedRaw, answered, divided].map(isDatabaseUnreachable)).toEqual([true, true, true, false, false]);
  });

  it("retries a step while the connection is lost, then returns its result", async () => {
    let tries = 0;
    const value = await whenPostgresAnswers(async () => {
      tries++;
      if (tries < 3) await terminatedMidTransaction();
      return getDb().team.count();
    }, { runId: "r1", step: "credentials" });
    expect({ tries, value }).toEqual({ tries: 3, value: await getDb().team.count() });
  });

  it("fails at once on an answered error, and stops waiting when the run is aborted", async () => {
    let tries = 0;
    const answered = whenPostgresAnswers(async () => { tries++; return getDb().$queryRawUnsafe("SELECT * FROM no_such_table"); }, { runId: "r1", step: "token" });
    await expect(answered).rejects.toThrow(/no_such_table/);
    expect(tries).toBe(1);

    const abort = new AbortController();
    abort.abort("lease lost");
    const aborted = whenPostgresAnswers(async () => { tries++; return closedPort.db.team.count(); }, { runId: "r1", step: "start", signal: abort.signal });
    await expect(aborted).rejects.toThrow(/Can't reach database server/);
    expect(tries).toBe(2);
  });
});
