import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { appendTurn } from "@/lib/threads/append";
import { createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

// The lead's wake-up rules, each played by one real worker process (workers/main.ts) running the
// lead's loop and the demo agent's lead runs, as production does. One process, so its loop's
// passes come one after another (see `passes`).
const workers: ReturnType<typeof startWorkerProcess>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => stopWorkerProcess(w, "SIGKILL")));
});

const db = () => getDb();
const MIN = 60_000;

async function startWorker(env: Record<string, string> = {}) {
  const w = startWorkerProcess(env);
  workers.push(w);
  await waitForWorkers(w);
  return w;
}

async function freshThread(title: string) {
  const { project } = await createTeamWithProject({ loopEnabled: false });
  const thread = await db().thread.create({ data: { projectId: project.id, title } });
  // Worker progress turns wake nobody; each one the loop delivers marks one of its passes.
  const markers = await db().thread.create({ data: { projectId: project.id, title: "markers" } });
  return { thread, markers };
}

/**
 * Waits until the worker's loop has made at least one whole pass that began after this call:
 * a pass delivers what was sent before it started, so the third marker, written after the
 * second was delivered, is delivered by a pass after the one that delivered the first.
 */
async function passes(markersId: string) {
  for (let i = 0; i < 3; i++) {
    const marker = await appendTurn(markersId, { actor: "worker", actorId: "marker", action: "progress", text: `pass ${i}` });
    await waitUntil("the loop to deliver a marker", async () =>
      (await db().turn.findUniqueOrThrow({ where: { id: marker!.id } })).status === "delivered", 30_000);
  }
}

const leadRuns = (threadId: string) => db().run.findMany({ where: { threadId, kind: "lead" }, orderBy: { queuedAt: "asc" } });
const statuses = async (threadId: string) =>
  (await db().turn.findMany({ where: { threadId }, orderBy: { seq: "asc" } })).map((t) => `${t.seq}:${t.actor}:${t.status}`);
/** Waits until the thread has `n` lead runs, none still live, and the turns the last one read evaluated. */
const runsEnded = (threadId: string, n: number, output: () => string) =>
  waitUntil(`${n} finished lead runs`, async () => {
    const runs = await leadRuns(threadId);
    if (runs.length !== n || !runs.every((r) => ["succeeded", "failed", "cancelled", "timed_out"].includes(r.status))) return null;
    const unread = await db().turn.count({ where: { threadId, seq: { lte: runs[n - 1].threadSeq ?? 0 }, status: { not: "evaluated" } } });
    return unread === 0 && runs;
  }, 60_000).catch((err: Error) => { throw new Error(`${err.message}\n${output()}`); });
/** The thread's receipts once they settle on `expected` (the loop delivers a new turn within a pass). */
async function expectStatuses(threadId: string, expected: string[]) {
  await waitUntil("the receipts", async () => JSON.stringify(await statuses(threadId)) === JSON.stringify(expected), 30_000).catch(() => null);
  expect(await statuses(threadId)).toEqual(expected);
}
const person = (threadId: string, text: string) => appendTurn(threadId, { actor: "person", actorId: "user:u", text });
const confirm = (threadId: string, monitor: string, text: string) =>
  appendTurn(threadId, { actor: "monitor", actorId: monitor, action: "confirm", text }, { skipIfPending: true });

describe("the lead's wake-up rules with a real worker process", () => {
  it("one turn → one run → all evaluated → no further run; then one idle look 240 s later on the worker's fake clock, once", async () => {
    const { thread, markers } = await freshThread("keep an eye on the deploy");
    const clock = join(mkdtempSync(join(tmpdir(), "rm-clock-")), "now");
    const t0 = Date.now() + 24 * 60 * MIN;
    writeFileSync(clock, String(t0));
    const w = await startWorker({ TEST_CLOCK_FILE: clock });

    await person(thread.id, "keep an eye on the deploy");
    const [first] = await runsEnded(thread.id, 1, w.output);
    // The run was started by the worker's loop at the time the test gave it.
    expect(first).toMatchObject({ status: "succeeded", threadSeq: 1 });
    expect(first.queuedAt.getTime()).toBe(t0);
    await expectStatuses(thread.id, ["1:person:evaluated", "2:lead:delivered"]);
    await passes(markers.id);
    expect(await leadRuns(thread.id)).toHaveLength(1);

    writeFileSync(clock, String(t0 + 239_000));
    await passes(markers.id);
    expect(await leadRuns(thread.id)).toHaveLength(1);

    writeFileSync(clock, String(t0 + 241_000));
    const runs = await runsEnded(thread.id, 2, w.output);
    expect(runs[1]).toMatchObject({ status: "succeeded", threadSeq: 2 });
    expect(runs[1].queuedAt.getTime()).toBe(t0 + 241_000);
    expect(w.output()).not.toContain("lead loop breaker");

    // Quiet for good: the idle net does not fire again however long the thread stays quiet.
    for (const later of [10 * MIN, 20 * MIN, 40 * MIN]) {
      writeFileSync(clock, String(t0 + later));
      await passes(markers.id);
    }
    expect(await leadRuns(thread.id)).toHaveLength(2);
  });

  it("marks older threads' turns evaluated at the worker's first start and logs the count; the next start counts 0", async () => {
    const { thread, markers } = await freshThread("from before read receipts");
    for (const text of ["old one", "old two", "old three"]) await person(thread.id, text);
    await db().thread.update({ where: { id: thread.id }, data: { receiptsSince: null } });

    const counts = (output: string) => output.split("\n").filter((l) => l.includes("read receipts start-up migration")).map((l) => JSON.parse(l).turns);
    const first = await startWorker();
    expect(counts(first.output())).toEqual([3]);
    expect(await statuses(thread.id)).toEqual(["1:person:evaluated", "2:person:evaluated", "3:person:evaluated"]);
    await passes(markers.id);
    expect(await leadRuns(thread.id)).toHaveLength(0);
    await stopWorkerProcess(first);

    const second = await startWorker();
    expect(counts(second.output())).toEqual([0]);
  });

  it("drops a monitor's confirm while its previous one is unevaluated, and takes it once the lead has read it", async () => {
    const { thread, markers } = await freshThread("watch CI");
    await appendTurn(thread.id, { actor: "lead", actorId: "lead-run", action: "wait", text: "Merge when CI is green?" });
    const w = await startWorker();
    expect((await confirm(thread.id, "ci", "CI went green"))!.seq).toBe(2);
    await passes(markers.id);
    // Delivered (the loop saw it) but not evaluated (the thread waits for a person): still pending.
    expect(await statuses(thread.id)).toEqual(["1:lead:delivered", "2:monitor:delivered"]);
    expect(await confirm(thread.id, "ci", "CI went green again")).toBeNull();
    // Another monitor's confirm is its own.
    expect((await confirm(thread.id, "review", "review arrived"))!.seq).toBe(3);

    await person(thread.id, "merge it");
    await runsEnded(thread.id, 1, w.output);
    await expectStatuses(thread.id, ["1:lead:evaluated", "2:monitor:evaluated", "3:monitor:evaluated", "4:person:evaluated", "5:lead:delivered"]);
    expect((await confirm(thread.id, "ci", "CI green on main"))!.seq).toBe(6);
    const runs = await runsEnded(thread.id, 2, w.output);
    expect(runs[1].threadSeq).toBe(6);
  });

  it("pauses a thread whose lead woke 5 times without a person (loop breaker), until a person writes", async () => {
    const { thread } = await freshThread("CI chatter");
    const w = await startWorker();
    const ci = (text: string) => appendTurn(thread.id, { actor: "monitor", actorId: "ci", action: "confirm", text });
    for (let i = 0; i < 5; i++) {
      await ci(`CI run ${i} finished`);
      await runsEnded(thread.id, i + 1, w.output);
    }
    await ci("CI run 5 finished");
    const paused = await waitUntil("the thread paused", async () => {
      const t = await db().thread.findUniqueOrThrow({ where: { id: thread.id }, include: { turns: { orderBy: { seq: "desc" }, take: 1 } } });
      return t.waitingForUser && t.turns[0].actor === "system" && t.turns[0];
    }, 30_000);
    expect(paused).toMatchObject({ action: "wait" });
    expect(paused.content).toContain("ran 5 times in 30 minutes");
    expect(await leadRuns(thread.id)).toHaveLength(5);
    expect(w.output()).toContain("lead loop breaker paused the thread");

    await person(thread.id, "go on");
    const runs = await runsEnded(thread.id, 6, w.output);
    expect(runs[5].status).toBe("succeeded");
  });
});
