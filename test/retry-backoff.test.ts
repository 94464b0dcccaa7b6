import { beforeEach, describe, expect, it, vi } from "vitest";

// This file measures the backoff itself; the other files run without one (test/helpers/setup-file.ts).
vi.hoisted(() => { process.env.RETRY_BACKOFF_MS = "10000"; });

import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { completeRun } from "@/lib/runs/complete";
import { emptyQueues, liveRun } from "./helpers/runs";

beforeEach(emptyQueues);

const failure = { status: "failed" as const, exitCode: 1, signal: null, error: "exit code 1", failureLog: "tests failed: 3 of 40" };

describe("a failed attempt backs off before the prompt runs again", () => {
  it("waits 10 s after the first failure and 20 s after the second; the tick says why and starts it once the wait is over", async () => {
    const { project, profile, run, prompt } = await liveRun({ maxAttempts: 5 });
    const db = getDb();
    await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    await db.project.update({ where: { id: project.id }, data: { settings: { update: { executorProfileId: profile.id, spawnCooldownMs: 0 } } } });

    await completeRun(run.id, failure);
    const first = await db.prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    const ended = (await db.run.findUniqueOrThrow({ where: { id: run.id } })).finishedAt!;
    expect(first).toMatchObject({ status: "pending", attempts: 1, failureLog: "tests failed: 3 of 40" });
    expect(first.retryAt!.getTime() - ended.getTime()).toBeGreaterThanOrEqual(10_000);
    expect(first.retryAt!.getTime() - ended.getTime()).toBeLessThan(11_000);
    expect((await db.activityEvent.findFirstOrThrow({ where: { projectId: project.id, type: "taskFailed" } })).message)
      .toBe("#4 Add search: failed (exit code 1); back to pending (attempts 1/5; retry in 10s)");

    const at = (ms: number) => () => new Date(first.retryAt!.getTime() + ms);
    expect(await runTick(project.id, at(-2_500))).toMatchObject({
      decision: { kind: "wait", message: "Waiting: 1 pending prompt blocked: #4 (retry in 3s after a failed attempt)" },
    });
    expect(await db.run.count({ where: { promptId: prompt.id } })).toBe(1);
    expect(await runTick(project.id, at(0))).toMatchObject({ decision: { kind: "spawn_executor", promptNumber: 4 } });
    const second = await db.run.findFirstOrThrow({ where: { promptId: prompt.id, status: "queued" } });
    expect(second.attempt).toBe(2);

    await db.run.update({ where: { id: second.id }, data: { status: "running" } });
    await completeRun(second.id, failure);
    const again = await db.prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    const ended2 = (await db.run.findUniqueOrThrow({ where: { id: second.id } })).finishedAt!;
    expect(again.attempts).toBe(2);
    expect(again.retryAt!.getTime() - ended2.getTime()).toBeGreaterThanOrEqual(20_000);
    expect(again.retryAt!.getTime() - ended2.getTime()).toBeLessThan(21_000);
  });

  it("a shutdown that hands the prompt back without counting the attempt does not wait", async () => {
    const { run, prompt } = await liveRun();
    await completeRun(run.id, { ...failure, countAttempt: false });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "pending", attempts: 0, retryAt: null });
  });
});
