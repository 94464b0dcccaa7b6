// How a prompt leaves in_progress when its run did not land: a failed attempt (counted or not,
// retried after a backoff or failed for good), a merge conflict (its own cap), a lost run (its
// own cap). Called in a transaction by completeRun, mergeRun and the sweeper; here directly.
import { describe, expect, it, vi } from "vitest";

// A real backoff: the retry instant shows the doubling (the other files run without one).
vi.hoisted(() => { process.env.RETRY_BACKOFF_MS = "10000"; });

import { getDb } from "@/lib/db";
import { clearSpawnCooldown, failPromptAttempt, returnConflictedPrompt, returnLostRunPrompt } from "@/lib/runs/finish-prompt";
import { addPrompt } from "./helpers/fixtures";
import { createBareProject } from "./helpers/runs";

const now = new Date("2026-11-23T12:00:00.000Z");

async function inProgress(data: { attempts?: number; maxAttempts?: number; failureLog?: string | null; retryAt?: Date | null; status?: "in_progress" | "pending" | "done" } = {}) {
  const { project, profile } = await createBareProject();
  const added = await addPrompt(project.id, { number: 4, title: "Add search", body: "" });
  const prompt = await getDb().prompt.update({ where: { id: added.id }, data: { status: "in_progress", attempts: 0, maxAttempts: 3, ...data } });
  return { project, profile, prompt };
}

const tx = <T>(fn: (tx: Parameters<Parameters<ReturnType<typeof getDb>["$transaction"]>[0]>[0]) => Promise<T>) => getDb().$transaction(fn);
const pick = (p: { status: string; attempts: number; retryAt: Date | null; failureLog: string | null }) =>
  ({ status: p.status, attempts: p.attempts, retryAt: p.retryAt, failureLog: p.failureLog });

describe("a failed attempt", () => {
  it("is counted and retried after the base backoff, doubled for each earlier failure", async () => {
    const { prompt } = await inProgress();
    const first = await tx((t) => failPromptAttempt(t, prompt.id, "tests failed", true, true, now));
    expect(pick(first)).toEqual({ status: "pending", attempts: 1, retryAt: new Date(now.getTime() + 10_000), failureLog: "tests failed" });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject(pick(first));

    // Counted and retried unless told otherwise.
    const plain = await inProgress();
    expect(pick(await tx((t) => failPromptAttempt(t, plain.prompt.id, "plain", undefined, undefined, now))))
      .toEqual({ status: "pending", attempts: 1, retryAt: new Date(now.getTime() + 10_000), failureLog: "plain" });

    const second = await inProgress({ attempts: 1, maxAttempts: 5, failureLog: "earlier" });
    // No new log: the earlier one stays.
    expect(pick(await tx((t) => failPromptAttempt(t, second.prompt.id, null, true, true, now))))
      .toEqual({ status: "pending", attempts: 2, retryAt: new Date(now.getTime() + 20_000), failureLog: "earlier" });
  });

  it("fails the prompt for good on its last attempt, or when no retry is wanted, with no retry instant", async () => {
    const last = await inProgress({ attempts: 2, maxAttempts: 3 });
    expect(pick(await tx((t) => failPromptAttempt(t, last.prompt.id, "again", true, true, now))))
      .toEqual({ status: "failed", attempts: 3, retryAt: null, failureLog: "again" });
    const unwanted = await inProgress();
    expect(pick(await tx((t) => failPromptAttempt(t, unwanted.prompt.id, "stopped", true, false, now))))
      .toEqual({ status: "failed", attempts: 1, retryAt: null, failureLog: "stopped" });
  });

  it("not counted (a shutdown) goes straight back to pending, even on the last attempt", async () => {
    const { prompt } = await inProgress({ attempts: 2, maxAttempts: 3 });
    expect(pick(await tx((t) => failPromptAttempt(t, prompt.id, "shutdown", false, true, now))))
      .toEqual({ status: "pending", attempts: 2, retryAt: null, failureLog: "shutdown" });
  });

  it("leaves a prompt that is no longer in progress as it is", async () => {
    for (const status of ["pending", "done"] as const) {
      const { prompt } = await inProgress({ status, attempts: 1, failureLog: "kept" });
      expect(pick(await tx((t) => failPromptAttempt(t, prompt.id, "late", true, true, now))))
        .toEqual({ status, attempts: 1, retryAt: null, failureLog: "kept" });
      expect(pick(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } }))).toEqual({ status, attempts: 1, retryAt: null, failureLog: "kept" });
    }
  });
});

describe("a conflicted merge", () => {
  const conflicts = async (projectId: string, promptId: string, n: number) => {
    for (let i = 0; i < n; i++) {
      await getDb().run.create({ data: { projectId, promptId, kind: "executor", status: "succeeded", adapter: "demo", mergeStatus: "conflict" } });
    }
  };

  it("returns the prompt to pending at once without spending an attempt, until its fifth conflict fails it", async () => {
    const { project, prompt } = await inProgress({ attempts: 1, retryAt: new Date("2026-11-23T13:00:00Z") });
    // Another prompt's conflicts are not this one's.
    const other = await addPrompt(project.id, { number: 5, title: "Other", body: "" });
    await conflicts(project.id, other.id, 3);
    await conflicts(project.id, prompt.id, 4);
    expect(pick(await tx((t) => returnConflictedPrompt(t, prompt.id, "conflict in a.txt"))))
      .toEqual({ status: "pending", attempts: 1, retryAt: null, failureLog: "conflict in a.txt" });

    await getDb().prompt.update({ where: { id: prompt.id }, data: { status: "in_progress" } });
    await conflicts(project.id, prompt.id, 1);
    expect(pick(await tx((t) => returnConflictedPrompt(t, prompt.id, "conflict in b.txt")))).toEqual({
      status: "failed", attempts: 1, retryAt: null, failureLog: "its work conflicted with the base 5 times; last: conflict in b.txt",
    });
  });

  it("leaves a prompt that is no longer in progress as it is", async () => {
    const { prompt } = await inProgress({ status: "done", failureLog: null });
    expect(pick(await tx((t) => returnConflictedPrompt(t, prompt.id, "conflict in a.txt")))).toEqual({ status: "done", attempts: 0, retryAt: null, failureLog: null });
  });
});

describe("a lost run", () => {
  it("returns its prompt to pending without spending an attempt, until its runs were lost the cap's number of times", async () => {
    const { project, prompt } = await inProgress({ attempts: 1 });
    const lose = () => getDb().run.create({ data: { projectId: project.id, promptId: prompt.id, kind: "executor", status: "lost", adapter: "demo" } });
    const other = await addPrompt(project.id, { number: 5, title: "Other", body: "" });
    for (let i = 0; i < 3; i++) await getDb().run.create({ data: { projectId: project.id, promptId: other.id, kind: "executor", status: "lost", adapter: "demo" } });
    await lose();
    await lose();
    expect(pick(await tx((t) => returnLostRunPrompt(t, prompt.id, 3)))).toEqual({ status: "pending", attempts: 1, retryAt: null, failureLog: null });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { status: "in_progress" } });
    await lose();
    expect(pick(await tx((t) => returnLostRunPrompt(t, prompt.id, 3)))).toEqual({
      status: "failed", attempts: 1, retryAt: null, failureLog: "its runs were lost 3 times (the worker running it died or was cut off each time)",
    });
  });
});

describe("the spawn cooldown", () => {
  it("is cleared when a run ends, for its project only", async () => {
    const one = await inProgress();
    const other = await inProgress();
    for (const p of [one, other]) await getDb().loopState.update({ where: { projectId: p.project.id }, data: { lastSpawnAt: now } });
    await tx((t) => clearSpawnCooldown(t, one.project.id));
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: one.project.id } })).lastSpawnAt).toBeNull();
    expect((await getDb().loopState.findUniqueOrThrow({ where: { projectId: other.project.id } })).lastSpawnAt).toEqual(now);
  });
});
