// The outbox in process, on the shared Redis: what each message kind publishes, the relay's
// age window, limit and order, the scheduler it follows, and what a closed producer leaves.
import { Client } from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb, getDb, getPool } from "@/lib/db";
import { captureLogs } from "@/lib/log-capture";
import { getEnv } from "@/lib/env";
import { closeQueues, getQueue, publishOutbox, publishOutboxBatched, recordOutbox, sentOrdersDeleted, relayOutbox, sendViaOutbox, syncTickScheduler, tickSchedulerId, type OutboxMessage, type OutboxRow } from "@/lib/queues";
import { publishTogether } from "@/lib/queues/outbox";
import { isKnownDown } from "@/lib/redis/connections";
import { MAX_DELIVERY_BATCH } from "@/lib/queues/names";
import { closeRedis, getRedis } from "@/lib/redis/connections";
import { createBareProject } from "./helpers/runs";
import { waitUntil } from "./helpers/fixtures";

const record = (messages: OutboxMessage[]) => getDb().$transaction((tx) => recordOutbox(tx, messages));
const kept = async () => (await getDb().outbox.findMany({ orderBy: { id: "asc" } })).map((r) => [r.kind, r.payload]);
const ageAll = (ms: number) => getDb().outbox.updateMany({ data: { createdAt: new Date(Date.now() - ms) } });
// Rows as a caller hands them `ms` after it wrote them (by its own clock).
const handedAfter = (rows: OutboxRow[], ms: number): OutboxRow[] => rows.map((r) => ({ ...r, writtenAfter: performance.now() - ms }));
const jobs = async (queue: "tick" | "merge" | "spawn" | "github") =>
  (await getQueue(queue).getJobs(["waiting", "delayed", "prioritized"])).filter((j) => j.name !== "scheduled").map((j) => [j.id, j.name, j.data]);

// What the outbox logs, as [level, message, fields]: where a kept wake-up is said.
let lines: Array<Record<string, unknown>> = [];
beforeEach(() => { lines = captureLogs(); });
const outboxSaid = () => lines.filter((l) => l.name === "outbox")
  .map(({ level, msg, err, left }) => [level, msg, left === undefined ? { err } : { err, left }]);

/**
 * The rows as another session sees them: every committed row, and those it can lock. What a
 * fast path or a relay left uncommitted, or still locked, shows here.
 */
async function otherSession(): Promise<{ visible: string[]; free: string[] }> {
  const other = new Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
  try {
    const visible = (await other.query<{ kind: string }>(`SELECT kind FROM "Outbox" ORDER BY id`)).rows.map((r) => r.kind);
    await other.query("BEGIN");
    const { rows } = await other.query<{ kind: string }>(`SELECT kind FROM "Outbox" ORDER BY id FOR UPDATE SKIP LOCKED`);
    await other.query("ROLLBACK");
    return { visible, free: rows.map((r) => r.kind) };
  } finally {
    await other.end();
  }
}
const committedAndFree = async () => {
  const seen = await otherSession();
  return seen.visible.join() === seen.free.join() ? seen.free : seen;
};

afterEach(async () => {
  await getDb().outbox.deleteMany();
  await Promise.all((["tick", "merge", "spawn", "github", "slack"] as const).map((q) => getQueue(q).obliterate({ force: true })));
});

// A running project with a 4-second tick, ready for its scheduler.
async function runningProject() {
  const { project } = await createBareProject();
  await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
  await getDb().projectSettings.update({ where: { projectId: project.id }, data: { tickIntervalMs: 4000 } });
  return project;
}

describe("recordOutbox and publishOutbox", () => {
  it("records each message in the transaction, then publishes every kind to its queue and removes the rows", async () => {
    const project = await runningProject();
    const rows = await record([
      { kind: "tick", projectId: project.id, reason: "run succeeded" },
      { kind: "merge", runId: "run-m" },
      { kind: "spawn", runId: "run-s" },
      { kind: "github", deliveryId: "d-1" },
      { kind: "recheck", pullRequestId: "pr-1" },
      { kind: "schedule", projectId: project.id },
      { kind: "slack", deliveryRowId: "41" },
    ]);
    expect(rows.map((r) => r.message.kind)).toEqual(["tick", "merge", "spawn", "github", "recheck", "schedule", "slack"]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(7);
    expect((await kept()).map(([kind]) => kind)).toEqual(["tick", "merge", "spawn", "github", "recheck", "schedule", "slack"]);
    expect((await kept())[1]).toEqual(["merge", { kind: "merge", runId: "run-m" }]);

    const before = Date.now();
    await publishOutbox(rows);
    expect(await kept()).toEqual([]);
    expect(await committedAndFree()).toEqual([]);
    expect(outboxSaid()).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "run succeeded" }]]);
    expect(await jobs("merge")).toEqual([["merge-run-m", "merge", { runId: "run-m" }]]);
    expect(await jobs("spawn")).toEqual([["run-s", "spawn", { runId: "run-s" }]]);
    const github = (await jobs("github")).map(([id, name, data]) => [name, data, id]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(github).toEqual([
      ["delivery", { deliveryId: "d-1" }, "gh-d-1"],
      ["recheck", { recheckPullRequestId: "pr-1" }, expect.any(String)],
    ]);
    const scheduler = await getQueue("tick").getJobScheduler(tickSchedulerId(project.id));
    expect(scheduler?.every).toBe(4000);
    // A schedule without a nudge beside it starts its first tick at once (four seconds apart).
    expect(scheduler?.next).toBeLessThan(before + 4000);
    expect((await getQueue("slack").getJobs(["waiting"])).map((j) => [j.id, j.name, j.data])).toEqual([["slack-41", "event", { deliveryRowId: "41" }]]);
  });

  it("stamps each row with this process's clock read before its INSERT was sent, the fast path's measure of its age", async () => {
    const project = await runningProject();
    const before = performance.now();
    const rows = await getDb().$transaction(async (tx) => {
      const first = await recordOutbox(tx, [{ kind: "tick", projectId: project.id, reason: "first" }]);
      const between = performance.now();
      const second = await recordOutbox(tx, [{ kind: "tick", projectId: project.id, reason: "second" }, { kind: "merge", runId: "run-m" }]);
      return { first, between, second };
    });
    const after = performance.now();
    const stamps = [...rows.first, ...rows.second].map((r) => r.writtenAfter!);
    expect(stamps[0]).toBeGreaterThanOrEqual(before);
    expect(stamps[0]).toBeLessThanOrEqual(rows.between);
    expect(stamps[1]).toBeGreaterThanOrEqual(rows.between);
    // One stamp a statement: the second row's is read after the first row's INSERT answered.
    expect(stamps[2]).toBeGreaterThan(stamps[1]);
    expect(stamps[2]).toBeLessThanOrEqual(after);
  });

  it("does nothing for no rows, and leaves rows it was not handed", async () => {
    const project = await runningProject();
    await publishOutbox([]);
    await record([{ kind: "tick", projectId: project.id, reason: "not mine" }]);
    await publishOutbox([]);
    expect(await kept()).toEqual([["tick", { kind: "tick", projectId: project.id, reason: "not mine" }]]);
    expect(await jobs("tick")).toEqual([]);
  });

  it("sends a prompt's nudge without waiting for its project's schedule to be synced", async () => {
    const project = await runningProject();
    const rows = await record([{ kind: "schedule", projectId: project.id, nudged: true }, { kind: "tick", projectId: project.id, reason: "prompt created" }]);
    // The schedule's sync reads the loop's state: another session holds the table meanwhile.
    const other = new Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    await other.query("BEGIN");
    await other.query(`LOCK TABLE "LoopState" IN ACCESS EXCLUSIVE MODE`);
    let published = false;
    let before = 0;
    const publishing = publishOutbox(rows).then(() => { published = true; });
    try {
      await waitUntil("the nudge", async () => (await jobs("tick")).length === 1, 10_000);
      expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "prompt created" }]]);
      expect(published).toBe(false);
      expect(await getQueue("tick").getJobScheduler(tickSchedulerId(project.id))).toBeFalsy();
    } finally {
      before = Date.now();
      await other.query("COMMIT");
      await other.end();
    }
    await publishing;
    expect(await kept()).toEqual([]);
    // Nudged: the periodic tick starts one period later, not beside the nudge's tick.
    const scheduler = await getQueue("tick").getJobScheduler(tickSchedulerId(project.id));
    expect(scheduler?.every).toBe(4000);
    expect(scheduler?.next).toBeGreaterThanOrEqual(before + 4000);
  });

  it("with nudges off, a schedule published beside a (would-be) nudge starts its first tick at once: no nudge's tick runs beside it", async () => {
    const project = await runningProject();
    const rows = await record([{ kind: "schedule", projectId: project.id, nudged: true }]);
    const nudgesWere = getEnv().NUDGES;
    Object.assign(getEnv(), { NUDGES: "off" });
    const before = Date.now();
    try {
      await publishOutbox(rows);
    } finally {
      Object.assign(getEnv(), { NUDGES: nudgesWere });
    }
    expect((await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.next).toBeLessThan(before + 4000);
  });

  it("sendViaOutbox commits and publishes at once", async () => {
    const project = await runningProject();
    await sendViaOutbox([{ kind: "tick", projectId: project.id, reason: "force tick" }]);
    expect(await kept()).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "force tick" }]]);
  });
});

describe("publishTogether", () => {
  // BullMQ refuses a job id holding ":" (its key separator): a real publish that fails.
  it("sends every message at once and, when one fails, still counts its neighbours as sent, then throws that failure", async () => {
    const project = await runningProject();
    const rows = [
      { id: "11", message: { kind: "tick", projectId: project.id, reason: "beside a failure" } },
      { id: "12", message: { kind: "spawn", runId: "run:bad" } },
      { id: "13", message: { kind: "merge", runId: "run-ok" } },
    ] satisfies Array<{ id: string; message: OutboxMessage }>;
    const sent: string[] = [];
    await expect(publishTogether(rows, sent)).rejects.toThrow("Custom Id cannot contain :");
    expect(sent).toEqual(["11", "13"]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "beside a failure" }]]);
    expect(await jobs("merge")).toEqual([["merge-run-ok", "merge", { runId: "run-ok" }]]);
    expect(await jobs("spawn")).toEqual([]);

    const all: string[] = [];
    await publishTogether([{ id: "21", message: { kind: "spawn", runId: "run-a" } }, { id: "22", message: { kind: "spawn", runId: "run-b" } }], all);
    expect(all).toEqual(["21", "22"]);
    expect((await jobs("spawn")).map(([id]) => id).sort()).toEqual(["run-a", "run-b"]);
  });

  it("through the webhook intake's batches: what was sent is deleted, what failed stays for the relay, and the count kept is said", async () => {
    const [slack, spawn] = await record([{ kind: "slack", deliveryRowId: "77" }, { kind: "spawn", runId: "run:bad" }]);
    await Promise.all([publishOutboxBatched(slack), publishOutboxBatched(spawn)]);
    await sentOrdersDeleted();
    expect(await kept()).toEqual([["spawn", { kind: "spawn", runId: "run:bad" }]]);
    expect(await committedAndFree()).toEqual(["spawn"]);
    expect(outboxSaid()).toEqual([[40, "work order kept in the outbox until Redis answers", { err: "Custom Id cannot contain :", left: 1 }]]);
    expect((await getQueue("slack").getJobs(["waiting"])).map((j) => [j.id, j.data])).toEqual([["slack-77", { deliveryRowId: "77" }]]);
  });
});

describe("publishOutboxBatched", () => {
  it("answers once the order is queued, its row deleted behind the answer: a DELETE held up holds up no delivery", async () => {
    const [order] = await record([{ kind: "slack", deliveryRowId: "78" }]);
    // Another session locks the row: the DELETE of the sent order waits for it.
    const other = new Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    let answered = false;
    let deleted = false;
    try {
      await other.query("BEGIN");
      await other.query(`SELECT id FROM "Outbox" WHERE id = $1 FOR UPDATE`, [order.id]);
      const answer = publishOutboxBatched(order).then(() => { answered = true; });
      // The DELETE is sent after the publish returned, so once Postgres shows it waiting for the
      // lock, an answer that does not wait for it has been given. (Asked outside the locking
      // transaction: inside one, pg_stat_activity keeps its first snapshot.)
      await waitUntil("the sent order's DELETE to wait for the lock", async () => (await getPool().query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DELETE FROM "Outbox"%' AND wait_event_type = 'Lock'`)).rowCount);
      const settled = sentOrdersDeleted().then(() => { deleted = true; });
      // A round trip later the wait for the deletion still waits: the DELETE is held up.
      await getPool().query("SELECT 1");
      expect({ answered, deleted }).toEqual({ answered: true, deleted: false });
      await answer;
      expect((await getQueue("slack").getJobs(["waiting"])).map((j) => j.id)).toEqual(["slack-78"]);
      await other.query("COMMIT");
      await settled;
    } finally {
      await other.query("ROLLBACK").catch(() => {});
      await other.end();
    }
    expect(await kept()).toEqual([]);
    expect(outboxSaid()).toEqual([]);
  });

  it("says how many orders of a batch stayed when its GitHub job is refused, and sends the rest", async () => {
    const [first, bad, ok] = await record([
      { kind: "slack", deliveryRowId: "81" }, { kind: "github", deliveryId: "d:bad" }, { kind: "slack", deliveryRowId: "82" },
    ]);
    // The first goes out alone; the two arriving while it is sent go together after it.
    await Promise.all([first, bad, ok].map((o) => publishOutboxBatched(o)));
    await sentOrdersDeleted();
    expect(await kept()).toEqual([["github", { kind: "github", deliveryId: "d:bad" }]]);
    expect(outboxSaid()).toEqual([[40, "work order kept in the outbox until Redis answers", { err: "Custom Id cannot contain :", left: 1 }]]);
    expect((await getQueue("slack").getJobs(["waiting"])).map((j) => j.id).sort()).toEqual(["slack-81", "slack-82"]);
  });

  it("leaves a sent order whose DELETE failed to the relay, and says so", async () => {
    await publishOutboxBatched({ id: "not-a-bigint", message: { kind: "slack", deliveryRowId: "83" } });
    await sentOrdersDeleted();
    expect(outboxSaid()).toEqual([[40, "sent work orders left for the relay", { err: expect.stringContaining("bigint"), left: 1 }]]);
    expect((await getQueue("slack").getJobs(["waiting"])).map((j) => j.id)).toEqual(["slack-83"]);
  });

  it("publishes at most MAX_DELIVERY_BATCH GitHub orders in one job", async () => {
    const orders = Array.from({ length: MAX_DELIVERY_BATCH + 2 }, (_, i) => ({ id: String(700_000 + i), message: { kind: "github" as const, deliveryId: `m-${i}` } }));
    await Promise.all(orders.map((o) => publishOutboxBatched(o)));
    const sizes = (await getQueue("github").getJobs(["waiting"]))
      .map((j) => [j.id, "deliveryIds" in j.data ? j.data.deliveryIds.length : 1]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(sizes).toEqual([["gh-m-0", 1], [`gh-m-${MAX_DELIVERY_BATCH + 1}`, 1], ["ghb-700001", MAX_DELIVERY_BATCH]]);
  });
});

describe("isKnownDown", () => {
  it("is true for a connection that lost Redis and false for one opening or open", () => {
    expect(["reconnecting", "close", "end"].map(isKnownDown)).toEqual([true, true, true]);
    expect(["wait", "connecting", "connect", "ready"].map(isKnownDown)).toEqual([false, false, false, false]);
  });
});

describe("syncTickScheduler", () => {
  it("starts the first tick at once, or one period later when asked (the idle backoff's lengthened tick)", async () => {
    const [later, now] = [await runningProject(), await runningProject()];
    const next = async (projectId: string) => (await getQueue("tick").getJobScheduler(tickSchedulerId(projectId)))?.next ?? null;
    const before = Date.now();
    await syncTickScheduler(later.id, { startNext: "after_period" });
    await syncTickScheduler(now.id, { startNext: "now" });
    // Four seconds apart: no timing decides which side of before + 4000 each lands on.
    expect(await next(later.id)).toBeGreaterThanOrEqual(before + 4000);
    expect(await next(now.id)).toBeLessThan(before + 4000);
  });


  it("follows the project's state: on while it is active and its loop not stopped, off otherwise", async () => {
    const project = await runningProject();
    const every = async () => (await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.every ?? null;
    await syncTickScheduler(project.id);
    expect(await every()).toBe(4000);
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "stopped" } });
    await syncTickScheduler(project.id);
    expect(await every()).toBe(null);
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "paused" } });
    await syncTickScheduler(project.id);
    expect(await every()).toBe(4000);
    await getDb().project.update({ where: { id: project.id }, data: { archivedAt: new Date() } });
    await syncTickScheduler(project.id);
    expect(await every()).toBe(null);
  });
});

describe("relayOutbox", () => {
  it("leaves rows younger than a second to the fast path and relays older ones, oldest first, up to its limit", async () => {
    const project = await runningProject();
    expect(await relayOutbox()).toBe(0);
    await record([
      { kind: "tick", projectId: project.id, reason: "first" },
      { kind: "spawn", runId: "r2" },
      { kind: "spawn", runId: "r3" },
    ]);
    await ageAll(500);
    expect(await relayOutbox()).toBe(0);
    expect((await kept()).length).toBe(3);

    await ageAll(1500);
    expect(await relayOutbox(2)).toBe(2);
    expect(await kept()).toEqual([["spawn", { kind: "spawn", runId: "r3" }]]);
    expect(await committedAndFree()).toEqual(["spawn"]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "first" }]]);
    expect(await jobs("spawn")).toEqual([["r2", "spawn", { runId: "r2" }]]);
    expect(await relayOutbox()).toBe(1);
    expect(await kept()).toEqual([]);
    expect(outboxSaid()).toEqual([]);
  });

  it("relays every kind of message it reads, and drops each one missing a field or with a field of another type", async () => {
    const project = await runningProject();
    const good = [
      { kind: "tick", projectId: project.id, reason: "r" }, { kind: "merge", runId: "run-m" }, { kind: "spawn", runId: "run-s" },
      { kind: "schedule", projectId: project.id, nudged: true }, { kind: "github", deliveryId: "d-1" },
      { kind: "recheck", pullRequestId: "pr-1" }, { kind: "slack", deliveryRowId: "41" },
    ];
    const bad = [
      { kind: "tick", projectId: project.id }, { kind: "tick", projectId: "", reason: "r" }, { kind: "merge", runId: "" }, { kind: "merge", runId: 7 },
      { kind: "spawn", runId: "" }, { kind: "schedule", projectId: "" }, { kind: "schedule", projectId: project.id, nudged: "yes" },
      { kind: "github", deliveryId: "" }, { kind: "recheck", pullRequestId: "" }, { kind: "slack", deliveryRowId: "" }, { runId: "run-x" },
    ];
    await getDb().outbox.createMany({ data: [...bad, ...good].map((payload) => ({ kind: String(payload.kind ?? "none"), payload })) });
    await ageAll(1500);
    expect(await relayOutbox()).toBe(good.length);
    expect(await kept()).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "r" }]]);
    expect(await jobs("merge")).toEqual([["merge-run-m", "merge", { runId: "run-m" }]]);
    expect(await jobs("spawn")).toEqual([["run-s", "spawn", { runId: "run-s" }]]);
    expect((await jobs("github")).map(([, name]) => name).sort()).toEqual(["delivery", "recheck"]);
    expect((await getQueue("slack").getJobs(["waiting"])).map((j) => j.id)).toEqual(["slack-41"]);
    expect((await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.every).toBe(4000);
    const dropped = lines.filter((l) => l.msg === "outbox rows that are no message dropped").flatMap((l) => l.rows as { payload: unknown }[]);
    expect(dropped.map((r) => r.payload)).toEqual(bad);
  });

  it("drops a row that is no message, and says so, instead of failing every relay before the rows behind it", async () => {
    const project = await runningProject();
    // Written by another version, or by hand: a spawn order without its run, a kind it does not know.
    await getDb().outbox.createMany({ data: [
      { kind: "spawn", payload: { kind: "spawn" } },
      { kind: "tick", payload: { kind: "tick", projectId: project.id, reason: "behind the bad rows" } },
      { kind: "gone", payload: { kind: "gone", id: "x" } },
    ] });
    await ageAll(1500);
    expect(await relayOutbox()).toBe(1);
    expect(await kept()).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "behind the bad rows" }]]);
    expect(await jobs("spawn")).toEqual([]);
    expect(lines.filter((l) => l.name === "outbox").map(({ level, msg, rows }) => [level, msg, rows])).toEqual([
      [50, "outbox rows that are no message dropped", [{ id: expect.any(String), payload: { kind: "spawn" } }, { id: expect.any(String), payload: { kind: "gone", id: "x" } }]],
    ]);
  });
});

/** Closes the shared producer connection as an outage would, and waits until ioredis says so. */
async function closeProducer() {
  const redis = getRedis("producer");
  redis.disconnect();
  await waitUntil("the producer connection to end", async () => redis.status === "end");
}

describe("with the producer connection closed", () => {
  // Closing the shared connection is a Redis outage for this process; the next lib call opens a new one.
  afterEach(async () => {
    await closeQueues();
    await closeRedis();
  });

  it("the fast path keeps what it could not send, at once, and the relay sends it once Redis answers", async () => {
    const project = await runningProject();
    await getQueue("tick").waitUntilReady();
    const rows = await record([{ kind: "tick", projectId: project.id, reason: "while away" }]);
    await closeProducer();
    await publishOutbox(rows);
    expect(await kept()).toEqual([["tick", { kind: "tick", projectId: project.id, reason: "while away" }]]);
    // Failed fast on the closed connection rather than waiting for it, and said how many it kept.
    expect(outboxSaid()).toEqual([[40, "wake-up kept in the outbox until Redis answers", { err: "Redis is unreachable (end)", left: 1 }]]);
    // Committed and unlocked: the relay can take it.
    expect(await committedAndFree()).toEqual(["tick"]);

    await ageAll(2000);
    await expect(relayOutbox()).rejects.toThrow("Redis did not become ready within 2000 ms");
    expect(await kept()).toEqual([["tick", { kind: "tick", projectId: project.id, reason: "while away" }]]);
    // The relay's claim was rolled back: the row is free for the next try.
    expect(await committedAndFree()).toEqual(["tick"]);

    await closeQueues();
    await closeRedis();
    expect(await relayOutbox()).toBe(1);
    expect(await kept()).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "while away" }]]);
  });

  it("a fast path slower than the relay's window keeps what it could not send at once too, and lets its claim go", async () => {
    const project = await runningProject();
    await getQueue("tick").waitUntilReady();
    const rows = handedAfter(await record([{ kind: "tick", projectId: project.id, reason: "late while away" }]), 600);
    await closeProducer();
    await publishOutbox(rows);
    expect(outboxSaid()).toEqual([[40, "wake-up kept in the outbox until Redis answers", { err: "Redis is unreachable (end)", left: 1 }]]);
    expect(await committedAndFree()).toEqual(["tick"]);
  });

  it("the webhook intake's batched publish keeps its order at once, failing fast on the closed connection", async () => {
    const [order] = await record([{ kind: "slack", deliveryRowId: "84" }]);
    await closeProducer();
    await publishOutboxBatched(order);
    await sentOrdersDeleted();
    expect(await kept()).toEqual([["slack", { kind: "slack", deliveryRowId: "84" }]]);
    // Waiting for the closed producer would end in "Redis did not become ready within 2000 ms".
    expect(outboxSaid()).toEqual([[40, "work order kept in the outbox until Redis answers", { err: "Redis is unreachable (end)", left: 1 }]]);
  });

  it("a fast path slower than the relay's window leaves Redis alone when the relay took every row, and says nothing", async () => {
    const project = await runningProject();
    const rows = await record([{ kind: "tick", projectId: project.id, reason: "taken" }]);
    await getDb().outbox.deleteMany();
    await closeProducer();
    await publishOutbox(handedAfter(rows, 600));
    expect(outboxSaid()).toEqual([]);
  });

  it("the relay leaves Redis alone when another worker holds every due row, and answers 0 at once", async () => {
    const project = await runningProject();
    await record([{ kind: "tick", projectId: project.id, reason: "held elsewhere" }]);
    await ageAll(2000);
    const other = new Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(`SELECT id FROM "Outbox" FOR UPDATE`);
      await closeProducer();
      // Waiting for the closed producer would end in "Redis did not become ready within 2000 ms".
      expect(await relayOutbox()).toBe(0);
    } finally {
      await other.end();
    }
    expect(await kept()).toEqual([["tick", { kind: "tick", projectId: project.id, reason: "held elsewhere" }]]);
  });
});

describe("while a message is being published", () => {
  // A `schedule` message reads the project's loop state: a session holding that table makes the
  // publish wait there, with the outbox row claimed, until it lets go.
  async function withLoopStateHeld<T>(work: () => Promise<T>, whileHeld: () => Promise<unknown>): Promise<T> {
    const holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`LOCK TABLE "LoopState" IN ACCESS EXCLUSIVE MODE`);
      const running = work();
      await whileHeld();
      await holder.query("ROLLBACK");
      return await running;
    } finally {
      await holder.end();
    }
  }
  // Once the publish waits on the loop's state, the row is seen held (claimed) or free: no waiting for either.
  const seenWhilePublishing = async () => {
    await waitUntil("the publish to wait on the loop's state", async () => (await getPool().query(
      `SELECT 1 FROM pg_locks WHERE relation = '"LoopState"'::regclass AND NOT granted`)).rows.length > 0);
    return otherSession();
  };
  const claimedElsewhere = async () => expect(await seenWhilePublishing()).toEqual({ visible: ["schedule"], free: [] });

  it("a fast path slower than half the relay's window holds its rows locked until they are sent and deleted, so no relay takes them meanwhile", async () => {
    const project = await runningProject();
    const rows = handedAfter(await record([{ kind: "schedule", projectId: project.id }]), 600);
    await withLoopStateHeld(() => publishOutbox(rows), claimedElsewhere);
    expect(await kept()).toEqual([]);
    expect(await committedAndFree()).toEqual([]);
    expect((await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.every).toBe(4000);
  });

  it("a fast path within half the relay's window claims nothing: no relay can take its rows yet", async () => {
    const project = await runningProject();
    for (const after of [0, 400]) {
      const rows = await record([{ kind: "schedule", projectId: project.id }]);
      // Stamped as the publish begins: the lock's connection made before it takes no part of the window.
      await withLoopStateHeld(() => publishOutbox(handedAfter(rows, after)), async () => expect(await seenWhilePublishing()).toEqual({ visible: ["schedule"], free: ["schedule"] }));
      expect(await kept()).toEqual([]);
    }
    expect((await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.every).toBe(4000);
  });

  it("the relay holds the rows it claimed until they are sent and deleted", async () => {
    const project = await runningProject();
    await record([{ kind: "schedule", projectId: project.id }]);
    await ageAll(2000);
    expect(await withLoopStateHeld(() => relayOutbox(), claimedElsewhere)).toBe(1);
    expect(await kept()).toEqual([]);
  });

  it.each([["written a moment ago", 0], ["handed after the relay's window", 600]])("a message that fails is kept; those sent beside it are deleted, and it says how many it kept (rows %s)", async (_, after) => {
    const project = await runningProject();
    const rows = await record([
      { kind: "tick", projectId: project.id, reason: "sent" },
      { kind: "spawn", runId: "run:bad" },
      { kind: "merge", runId: "sent-too" },
    ]);
    await publishOutbox(handedAfter(rows, after));
    expect(outboxSaid()).toEqual([[40, "wake-up kept in the outbox until Redis answers", { err: "Custom Id cannot contain :", left: 1 }]]);
    expect((await kept()).map(([kind]) => kind)).toEqual(["spawn"]);
    expect(await committedAndFree()).toEqual(["spawn"]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "sent" }]]);
    expect(await jobs("merge")).toEqual([["merge-sent-too", "merge", { runId: "sent-too" }]]);
  });
});

describe("a fast path Postgres refuses", () => {
  // The process's pool, pointed for a moment at a port where no Postgres listens.
  async function withPostgresAway(work: () => Promise<void>): Promise<void> {
    const holder = globalThis as unknown as { __ringmasterDb?: ReturnType<typeof createDb> };
    const real = holder.__ringmasterDb;
    const away = createDb("postgresql://postgres@127.0.0.1:1/none", 1);
    holder.__ringmasterDb = away;
    try {
      await work();
    } finally {
      holder.__ringmasterDb = real;
      await away.pool.end();
    }
  }

  it("keeps its rows when no connection can be had, says why, and never throws", async () => {
    const project = await runningProject();
    const rows = handedAfter(await record([{ kind: "tick", projectId: project.id, reason: "while Postgres is away" }]), 600);
    await withPostgresAway(() => expect(publishOutbox(rows)).resolves.toBeUndefined());
    expect(outboxSaid()).toEqual([[40, "wake-up kept in the outbox for the relay", { err: "connect ECONNREFUSED 127.0.0.1:1" }]]);
    expect(await committedAndFree()).toEqual(["tick"]);
    expect(await jobs("tick")).toEqual([]);
  });

  it("sends rows written a moment ago all the same, leaves them to the relay when their DELETE fails, says so, and never throws", async () => {
    const project = await runningProject();
    const rows = await record([{ kind: "tick", projectId: project.id, reason: "sent while Postgres is away" }]);
    await withPostgresAway(() => expect(publishOutbox(handedAfter(rows, 0))).resolves.toBeUndefined());
    expect(outboxSaid()).toEqual([[40, "sent wake-up left for the relay", { err: "connect ECONNREFUSED 127.0.0.1:1", left: 1 }]]);
    expect(await committedAndFree()).toEqual(["tick"]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "sent while Postgres is away" }]]);
  });


  it("keeps its rows for the relay, says why, never throws, and leaves its connection clean for the next caller", async () => {
    const project = await runningProject();
    const rows = await record([{ kind: "tick", projectId: project.id, reason: "next" }]);
    await publishOutbox([{ id: "not-a-row-id", message: { kind: "spawn", runId: "r" } }]);
    expect(outboxSaid()).toEqual([[40, "wake-up kept in the outbox for the relay", { err: 'invalid input syntax for type bigint: "not-a-row-id"' }]]);
    // The connection went back to the pool rolled back: the next publish on it goes through.
    await publishOutbox(rows);
    expect(outboxSaid()).toHaveLength(1);
    expect(await committedAndFree()).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "next" }]]);
  });
});
