// The outbox in process, on the shared Redis: what each message kind publishes, the relay's
// age window, limit and order, the scheduler it follows, and what a closed producer leaves.
import { Writable } from "node:stream";
import { Client } from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { logTo } from "@/lib/log";
import { closeQueues, getQueue, publishOutbox, recordOutbox, relayOutbox, sendViaOutbox, syncTickScheduler, tickSchedulerId, type OutboxMessage } from "@/lib/queues";
import { closeRedis, getRedis } from "@/lib/redis/connections";
import { createBareProject } from "./helpers/runs";
import { waitUntil } from "./helpers/fixtures";

const record = (messages: OutboxMessage[]) => getDb().$transaction((tx) => recordOutbox(tx, messages));
const kept = async () => (await getDb().outbox.findMany({ orderBy: { id: "asc" } })).map((r) => [r.kind, r.payload]);
const ageAll = (ms: number) => getDb().outbox.updateMany({ data: { createdAt: new Date(Date.now() - ms) } });
const jobs = async (queue: "tick" | "merge" | "spawn" | "github") =>
  (await getQueue(queue).getJobs(["waiting", "delayed", "prioritized"])).filter((j) => j.name !== "scheduled").map((j) => [j.id, j.name, j.data]);

// What the outbox logs, as [level, message, fields]: where a kept wake-up is said.
const logged: Array<[number, string, Record<string, unknown>]> = [];
beforeEach(() => {
  logged.length = 0;
  logTo(new Writable({
    write(chunk, _enc, done) {
      const { level, msg, name, err, left } = JSON.parse(chunk.toString());
      if (name === "outbox") logged.push([level, msg, left === undefined ? { err } : { err, left }]);
      done();
    },
  }));
});

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

    await publishOutbox(rows);
    expect(await kept()).toEqual([]);
    expect(await committedAndFree()).toEqual([]);
    expect(logged).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "run succeeded" }]]);
    expect(await jobs("merge")).toEqual([["merge-run-m", "merge", { runId: "run-m" }]]);
    expect(await jobs("spawn")).toEqual([["run-s", "spawn", { runId: "run-s" }]]);
    const github = (await jobs("github")).map(([id, name, data]) => [name, data, id]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(github).toEqual([
      ["delivery", { deliveryId: "d-1" }, "gh-d-1"],
      ["recheck", { recheckPullRequestId: "pr-1" }, expect.any(String)],
    ]);
    expect((await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.every).toBe(4000);
    expect((await getQueue("slack").getJobs(["waiting"])).map((j) => [j.id, j.name, j.data])).toEqual([["slack-41", "event", { deliveryRowId: "41" }]]);
  });

  it("does nothing for no rows, and leaves rows it was not handed", async () => {
    const project = await runningProject();
    await publishOutbox([]);
    await record([{ kind: "tick", projectId: project.id, reason: "not mine" }]);
    await publishOutbox([]);
    expect(await kept()).toEqual([["tick", { kind: "tick", projectId: project.id, reason: "not mine" }]]);
    expect(await jobs("tick")).toEqual([]);
  });

  it("sendViaOutbox commits and publishes at once", async () => {
    const project = await runningProject();
    await sendViaOutbox([{ kind: "tick", projectId: project.id, reason: "force tick" }]);
    expect(await kept()).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "force tick" }]]);
  });
});

describe("syncTickScheduler", () => {
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
    expect(logged).toEqual([[40, "wake-up kept in the outbox until Redis answers", { err: "Redis is unreachable (end)", left: 1 }]]);
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

  it("the fast path leaves Redis alone when the relay took every row, and says nothing", async () => {
    const project = await runningProject();
    const rows = await record([{ kind: "tick", projectId: project.id, reason: "taken" }]);
    await getDb().outbox.deleteMany();
    await closeProducer();
    await publishOutbox(rows);
    expect(logged).toEqual([]);
  });
});

describe("a fast path Postgres refuses", () => {
  it("keeps its rows for the relay, says why, never throws, and leaves its connection clean for the next caller", async () => {
    const project = await runningProject();
    const rows = await record([{ kind: "tick", projectId: project.id, reason: "next" }]);
    await publishOutbox([{ id: "not-a-row-id", message: { kind: "spawn", runId: "r" } }]);
    expect(logged).toEqual([[40, "wake-up kept in the outbox for the relay", { err: 'invalid input syntax for type bigint: "not-a-row-id"' }]]);
    // The connection went back to the pool rolled back: the next publish on it goes through.
    await publishOutbox(rows);
    expect(logged).toHaveLength(1);
    expect(await committedAndFree()).toEqual([]);
    expect(await jobs("tick")).toEqual([[expect.any(String), "nudge", { projectId: project.id, reason: "next" }]]);
  });
});
