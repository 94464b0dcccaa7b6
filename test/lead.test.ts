import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { appendTurn } from "@/lib/threads/append";
import { completeRun } from "@/lib/runs/complete";
import { scanThreads } from "@/lib/lead/scan";
import { wakeThread } from "@/lib/lead/wake";
import { migrateReceipts } from "@/lib/lead/migrate";
import { createTeamWithProject } from "./helpers/fixtures";

const db = () => getDb();
const MIN = 60_000;

async function freshThread() {
  const { project } = await createTeamWithProject({ loopEnabled: false });
  return db().thread.create({ data: { projectId: project.id, title: "lead test" } });
}

const leadRuns = (threadId: string) => db().run.findMany({ where: { threadId, kind: "lead" }, orderBy: { queuedAt: "asc" } });
const statuses = async (threadId: string) =>
  (await db().turn.findMany({ where: { threadId }, orderBy: { seq: "asc" } })).map((t) => `${t.seq}:${t.actor}:${t.status}`);
const say = (threadId: string, text: string, actor: "person" | "monitor" | "worker" = "person", action: "message" | "progress" | "result" | "confirm" = "message") =>
  appendTurn(threadId, { actor, actorId: actor === "person" ? "user:u" : "x", action, text });
const live = (runId: string) => db().run.update({ where: { id: runId }, data: { status: "running", startedAt: new Date() } });
/** The run a worker would have carried out, ended as the worker ends it. */
async function finish(runId: string, status: "succeeded" | "failed", summary?: string) {
  await db().run.updateMany({ where: { id: runId, status: "queued" }, data: { status: "running", startedAt: new Date() } });
  expect(await completeRun(runId, { status, exitCode: status === "succeeded" ? 0 : 1, signal: null, summary })).toBe(true);
}

describe("the lead agent's wake-up rule", () => {
  it("gives 20 concurrent turns one run, evaluates them all when it succeeds, and does not wake on its own answer", async () => {
    const thread = await freshThread();
    await Promise.all(Array.from({ length: 20 }, (_, i) => say(thread.id, `question ${i}`)));
    await Promise.all([scanThreads(), scanThreads(), scanThreads()]);
    const [run, ...others] = await leadRuns(thread.id);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ kind: "lead", status: "queued", threadSeq: 20 });
    expect(new Set(await statuses(thread.id))).toEqual(new Set(Array.from({ length: 20 }, (_, i) => `${i + 1}:person:delivered`)));

    // A turn arriving while the run works is delivered at once, but starts no second run.
    await live(run.id);
    await say(thread.id, "one more thing");
    await scanThreads();
    expect((await statuses(thread.id))[20]).toBe("21:person:delivered");
    expect(await leadRuns(thread.id)).toHaveLength(1);

    await finish(run.id, "succeeded", "Run 12 failed on a flaky test.");
    const after = await statuses(thread.id);
    expect(after.slice(0, 20).every((s) => s.endsWith(":evaluated"))).toBe(true);
    expect(after.slice(20)).toEqual(["21:person:delivered", "22:lead:sent"]);
    expect((await db().turn.findUniqueOrThrow({ where: { threadId_seq: { threadId: thread.id, seq: 22 } } })).content).toBe("Run 12 failed on a flaky test.");

    // Turn 21 was not given to the first run: it wakes exactly one more, which sees up to 22.
    await Promise.all([scanThreads(), scanThreads()]);
    const runs = await leadRuns(thread.id);
    expect(runs).toHaveLength(2);
    expect(runs[1].threadSeq).toBe(22);
    await finish(runs[1].id, "succeeded", "");
    expect((await statuses(thread.id)).every((s) => s.endsWith(":evaluated"))).toBe(true);
    await scanThreads();
    await scanThreads();
    expect(await leadRuns(thread.id)).toHaveLength(2);
  });

  it("ends a lead run without touching the loop's spawn cooldown (a lead never held a spawn slot)", async () => {
    const thread = await freshThread();
    await say(thread.id, "a question");
    await scanThreads();
    const [run] = await leadRuns(thread.id);
    const spawned = new Date("2026-11-23T11:59:00.000Z");
    await db().loopState.update({ where: { projectId: thread.projectId }, data: { lastSpawnAt: spawned } });
    await finish(run.id, "succeeded", "answered");
    expect((await db().loopState.findUniqueOrThrow({ where: { projectId: thread.projectId } })).lastSpawnAt).toEqual(spawned);
  });

  it("leaves a crashed run's turns delivered, and the next run reads them", async () => {
    const thread = await freshThread();
    await say(thread.id, "why did run 12 fail?");
    await scanThreads();
    const [first] = await leadRuns(thread.id);
    await finish(first.id, "failed");
    expect(await statuses(thread.id)).toEqual(["1:person:delivered"]);
    await scanThreads();
    const runs = await leadRuns(thread.id);
    expect(runs).toHaveLength(2);
    await finish(runs[1].id, "succeeded", "It hit a timeout.");
    expect(await statuses(thread.id)).toEqual(["1:person:evaluated", "2:lead:sent"]);
  });

  it("wakes on people, monitors and workers' results, never on workers' progress; never when closed or waiting", async () => {
    const progress = await freshThread();
    await say(progress.id, "step 3 of 5", "worker", "progress");
    await scanThreads();
    expect(await statuses(progress.id)).toEqual(["1:worker:delivered"]);
    expect(await leadRuns(progress.id)).toHaveLength(0);
    await say(progress.id, "all tests pass", "worker", "result");
    await scanThreads();
    expect(await leadRuns(progress.id)).toHaveLength(1);

    const monitor = await freshThread();
    await say(monitor.id, "CI went green", "monitor", "confirm");
    await scanThreads();
    expect(await leadRuns(monitor.id)).toHaveLength(1);

    const closed = await freshThread();
    await say(closed.id, "hello?");
    await db().thread.update({ where: { id: closed.id }, data: { closedAt: new Date() } });
    await scanThreads();
    expect(await wakeThread(closed.id, "unread")).toBeNull();
    expect(await leadRuns(closed.id)).toHaveLength(0);
    expect(await statuses(closed.id)).toEqual(["1:person:sent"]);

    const waiting = await freshThread();
    await appendTurn(waiting.id, { actor: "lead", action: "wait", text: "Retry run 12, or drop the test?" });
    await say(waiting.id, "CI went green", "monitor", "confirm");
    await scanThreads();
    expect(await leadRuns(waiting.id)).toHaveLength(0);
    await say(waiting.id, "retry it");
    await scanThreads();
    expect(await leadRuns(waiting.id)).toHaveLength(1);
  });

  it("gives a quiet thread one idle look 240 s after its last run, once, on a fake clock", async () => {
    const thread = await freshThread();
    const t0 = new Date(Date.now() + 24 * 60 * MIN);
    await say(thread.id, "keep an eye on the deploy");
    await scanThreads(t0);
    const [first] = await leadRuns(thread.id);
    await finish(first.id, "succeeded", "");
    const at = (ms: number) => new Date(t0.getTime() + ms);
    await scanThreads(at(239_000));
    expect(await leadRuns(thread.id)).toHaveLength(1);
    await scanThreads(at(241_000));
    const runs = await leadRuns(thread.id);
    expect(runs).toHaveLength(2);
    await finish(runs[1].id, "succeeded", "");
    for (const later of [10 * MIN, 20 * MIN, 40 * MIN]) await scanThreads(at(later));
    expect(await leadRuns(thread.id)).toHaveLength(2);
  });

  it("pauses a thread whose lead keeps waking without a person (loop breaker) until a person writes", async () => {
    const thread = await freshThread();
    for (let i = 0; i < 5; i++) {
      await say(thread.id, `CI run ${i} finished`, "monitor", "confirm");
      await scanThreads();
      const runs = await leadRuns(thread.id);
      expect(runs).toHaveLength(i + 1);
      await finish(runs[i].id, "succeeded", "");
    }
    await say(thread.id, "CI run 5 finished", "monitor", "confirm");
    await scanThreads();
    expect(await leadRuns(thread.id)).toHaveLength(5);
    const t = await db().thread.findUniqueOrThrow({ where: { id: thread.id }, include: { turns: { orderBy: { seq: "desc" }, take: 1 } } });
    expect(t.waitingForUser).toBe(true);
    expect(t.turns[0]).toMatchObject({ actor: "system", action: "wait" });
    expect(t.turns[0].content).toContain("ran 5 times in 30 minutes");
    await say(thread.id, "go on");
    await scanThreads();
    expect(await leadRuns(thread.id)).toHaveLength(6);
  });

  it("closes a session past 45 minutes with a system turn, but grants 2 minutes after a fresh worker result", async () => {
    const thread = await freshThread();
    const t0 = new Date(Date.now() + 48 * 60 * MIN);
    await say(thread.id, "ship the release");
    await scanThreads(t0);
    const [run] = await leadRuns(thread.id);
    await live(run.id);
    await say(thread.id, "release built", "worker", "result");
    // The result is fresh at 45.5 min only if it arrived in the last minute: pretend it did.
    await db().turn.updateMany({ where: { threadId: thread.id, action: "result" }, data: { createdAt: new Date(t0.getTime() + 45 * MIN) } });
    await scanThreads(new Date(t0.getTime() + 45.5 * MIN));
    expect((await db().thread.findUniqueOrThrow({ where: { id: thread.id } })).closedAt).toBeNull();
    await scanThreads(new Date(t0.getTime() + 47.5 * MIN));
    const closed = await db().thread.findUniqueOrThrow({ where: { id: thread.id }, include: { turns: { orderBy: { seq: "desc" }, take: 1 } } });
    expect(closed.closedAt).not.toBeNull();
    expect(closed.turns[0]).toMatchObject({ actor: "system" });
    expect(closed.turns[0].content).toContain("45-minute limit");
    expect((await db().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("cancelled");
    await expect(say(thread.id, "hello?")).rejects.toMatchObject({ status: 409 });
  });

  it("marks the turns of threads older than receipts evaluated once at start-up, and counts them", async () => {
    const thread = await freshThread();
    for (const text of ["old one", "old two", "old three"]) await say(thread.id, text);
    await db().thread.update({ where: { id: thread.id }, data: { receiptsSince: null } });
    const fresh = await freshThread();
    await say(fresh.id, "new and unread");
    expect(await migrateReceipts()).toBe(3);
    expect(await statuses(thread.id)).toEqual(["1:person:evaluated", "2:person:evaluated", "3:person:evaluated"]);
    expect(await statuses(fresh.id)).toEqual(["1:person:sent"]);
    expect(await migrateReceipts()).toBe(0);
  });

  it("evaluates the lead's route turn for a prompt when the worker's run of it ends", async () => {
    const thread = await freshThread();
    const prompt = await db().prompt.create({ data: { projectId: thread.projectId, planningKey: "p", number: 1, title: "Add login", body: "" } });
    await appendTurn(thread.id, { actor: "lead", actorId: "lead-run", action: "route", text: "P1 goes to the queue", target: `prompt:${prompt.id}` });
    const run = await db().run.create({ data: { projectId: thread.projectId, promptId: prompt.id, kind: "executor", adapter: "demo", status: "running" } });
    await db().prompt.update({ where: { id: prompt.id }, data: { status: "in_progress" } });
    await finish(run.id, "succeeded", "Login added.");
    expect(await statuses(thread.id)).toEqual(["1:lead:evaluated"]);
  });
});
