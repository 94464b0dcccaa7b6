import { beforeEach, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { getDb } from "@/lib/db";
import { runnerWakeChannel } from "@/lib/redis/runner-wake";
import { waitUntil } from "./helpers/fixtures";
import { completeRun, type RunOutcome } from "@/lib/runs/complete";
import { activity, announced, audits, emptyQueues, livePlannerRun, liveRun, loopStateOf, queuedJobs, tokenOf } from "./helpers/runs";

const ok: RunOutcome = { status: "succeeded", exitCode: 0, signal: null };
const newer = <T>(items: T[], before: unknown[]) => items.slice(before.length);

beforeEach(emptyQueues);

describe("completing a run", () => {
  it("a success without changes closes the prompt, records everything once, and queues no merge", async () => {
    const { team, project, run, prompt } = await liveRun();
    const [acts, audit] = [await activity(project.id), await audits(team.id)];
    expect(await completeRun(run.id, { ...ok, summary: "nothing to change", costUsd: 0.25, inputTokens: 100, outputTokens: 20 })).toBe(true);

    const after = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(after).toMatchObject({
      status: "succeeded", exitCode: 0, signal: null, error: null, commitSha: null, mergeStatus: null,
      summary: "nothing to change", costUsd: 0.25, inputTokens: 100, outputTokens: 20, leaseExpiresAt: null,
    });
    expect(after.finishedAt).toBeInstanceOf(Date);
    const closed = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect(closed).toMatchObject({ status: "done", attempts: 0 });
    expect(closed.completedAt!.getTime()).toBe(after.finishedAt!.getTime());
    expect((await loopStateOf(project.id)).lastSpawnAt).toBeNull();
    expect((await tokenOf(run.id)).revokedAt).toBeInstanceOf(Date);
    expect(newer(await audits(team.id), audit)).toEqual([{
      action: "run.succeeded", actorType: "system", targetType: "run", targetId: run.id,
      before: { status: "running" }, after: { status: "succeeded", exitCode: 0, promptStatus: "done" },
    }]);
    expect(newer(await activity(project.id), acts)).toEqual([
      { type: "taskCompleted", message: "#4 Add search: done (no changes)", data: { runId: run.id, promptId: prompt.id } },
    ]);
    expect(await announced(team.id)).toContainEqual({ type: "agentsChange", projectId: project.id, runId: run.id });
    expect(await queuedJobs("merge")).toEqual([]);
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "run succeeded" }]]);
  });

  it("a success with a commit keeps the prompt in progress, attempts unchanged, until its merge lands", async () => {
    const { team, project, run, prompt } = await liveRun({ attempts: 1 });
    const acts = await activity(project.id);
    expect(await completeRun(run.id, { ...ok, commitSha: "abcdef1234567890" })).toBe(true);

    const after = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(after).toMatchObject({ status: "succeeded", commitSha: "abcdef1234567890", mergeStatus: "pending" });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "in_progress", attempts: 1, completedAt: null });
    expect(await queuedJobs("merge")).toEqual([[`merge-${run.id}`, { runId: run.id }]]);
    expect(newer(await activity(project.id), acts)).toEqual([
      { type: "runChange", message: "#4 Add search: agent finished (abcdef1); merge queued", data: { runId: run.id, promptId: prompt.id } },
    ]);
    expect((await audits(team.id)).at(-1)!.after).toEqual({ status: "succeeded", exitCode: 0, promptStatus: "in_progress" });
  });

  it("a failure sends the prompt back with the attempt counted and its log kept, and never queues a merge", async () => {
    const { team, project, run, prompt } = await liveRun();
    const acts = await activity(project.id);
    expect(await completeRun(run.id, {
      status: "failed", exitCode: 3, signal: null, error: "exit code 3", commitSha: "abcdef1234567890", failureLog: "boom: disk on fire",
    })).toBe(true);

    const after = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(after).toMatchObject({ status: "failed", exitCode: 3, error: "exit code 3", mergeStatus: null });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } }))
      .toMatchObject({ status: "pending", attempts: 1, failureLog: "boom: disk on fire", completedAt: null });
    expect(await queuedJobs("merge")).toEqual([]);
    expect(newer(await activity(project.id), acts)).toEqual([
      { type: "taskFailed", message: "#4 Add search: failed (exit code 3); back to pending (attempts 1/3)", data: { runId: run.id, promptId: prompt.id } },
    ]);
    expect((await audits(team.id)).at(-1)).toMatchObject({ action: "run.failed", after: { status: "failed", exitCode: 3, promptStatus: "pending" } });
    // Seed 003: a failure emits an `error` event.
    expect((await announced(team.id)).filter((e) => e.type === "error")).toEqual([{
      type: "error", projectId: project.id, runId: run.id, promptId: prompt.id, message: "#4 Add search: failed (exit code 3); back to pending (attempts 1/3)",
    }]);
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "run failed" }]]);
  });

  it("the last allowed failure fails the prompt for good", async () => {
    const { project, run, prompt } = await liveRun({ maxAttempts: 2, attempts: 1 });
    const acts = await activity(project.id);
    await completeRun(run.id, { status: "timed_out", exitCode: null, signal: "SIGKILL" });

    const failed = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect(failed).toMatchObject({ status: "failed", attempts: 2, failureLog: null });
    expect(failed.completedAt).toBeInstanceOf(Date);
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "timed_out", signal: "SIGKILL", error: null });
    expect(newer(await activity(project.id), acts).map((a) => a.message)).toEqual(["#4 Add search: timed_out; failed for good"]);
  });

  it("a shutdown hands the prompt back without counting the attempt, keeping the earlier failure log", async () => {
    const { team, project, run, prompt } = await liveRun({ attempts: 1 });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { failureLog: "first try failed" } });
    await completeRun(run.id, { status: "cancelled", exitCode: null, signal: "SIGTERM", countAttempt: false });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } }))
      .toMatchObject({ status: "pending", attempts: 1, failureLog: "first try failed", completedAt: null });
    // A cancelled run is no error: it is logged, not announced as one.
    expect((await activity(project.id)).at(-1)).toMatchObject({ type: "taskFailed", message: "#4 Add search: cancelled; back to pending (attempts 1/3)" });
    expect((await announced(team.id)).filter((e) => e.type === "error")).toEqual([]);
  });

  it("a second completion of a finished run changes nothing and reports false", async () => {
    const { team, project, run, prompt } = await liveRun();
    await completeRun(run.id, { ...ok, commitSha: "abcdef1234567890" });
    const [runRow, promptRow, acts, audit, events] = await Promise.all([
      getDb().run.findUniqueOrThrow({ where: { id: run.id } }), getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } }),
      activity(project.id), audits(team.id), announced(team.id),
    ]);
    await emptyQueues();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: new Date("2026-01-01T00:00:00Z") } });

    expect(await completeRun(run.id, { status: "failed", exitCode: 1, signal: null, error: "replayed" })).toBe(false);
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toEqual(runRow);
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toEqual(promptRow);
    expect(await activity(project.id)).toEqual(acts);
    expect(await audits(team.id)).toEqual(audit);
    expect(await announced(team.id)).toEqual(events);
    expect((await loopStateOf(project.id)).lastSpawnAt).toEqual(new Date("2026-01-01T00:00:00Z"));
    expect(await queuedJobs("merge")).toEqual([]);
    expect(await queuedJobs("tick")).toEqual([]);
  });

  it("completes a queued run as well as a starting one, but not a queued run's replay", async () => {
    const { run } = await liveRun();
    await getDb().run.update({ where: { id: run.id }, data: { status: "starting" } });
    expect(await completeRun(run.id, ok)).toBe(true);
    const other = await liveRun();
    await getDb().run.update({ where: { id: other.run.id }, data: { status: "queued" } });
    expect(await completeRun(other.run.id, ok)).toBe(false);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: other.run.id } })).status).toBe("queued");
  });

  it("labels a run without a prompt by its kind", async () => {
    const { project, profile } = await liveRun();
    const planner = await livePlannerRun(project.id, profile.id);
    const acts = await activity(project.id);
    await completeRun(planner.id, { status: "failed", exitCode: 2, signal: null });
    const done = await livePlannerRun(project.id, profile.id);
    await completeRun(done.id, ok);
    expect(newer(await activity(project.id), acts)).toEqual([
      { type: "taskFailed", message: "planner run: failed", data: { runId: planner.id } },
      { type: "taskCompleted", message: "planner run: done (no changes)", data: { runId: done.id } },
    ]);
  });

  it("wakes the team's runners when a remote executor run ends (a lead's worker_finished), and for no other run", async () => {
    const local = await liveRun();
    const { team, project, profile } = await liveRun();
    const sub = new Redis(process.env.REDIS_URL!);
    const woken: string[] = [];
    sub.on("message", (_channel: string, teamId: string) => woken.push(teamId));
    await sub.subscribe(runnerWakeChannel());
    try {
      // Another team's local executor and remote planner end first: neither wakes anyone (a
      // wake-up of theirs would arrive before the one awaited below).
      expect(await completeRun(local.run.id, ok)).toBe(true);
      const planner = await livePlannerRun(local.project.id, local.profile.id);
      await getDb().run.update({ where: { id: planner.id }, data: { remote: true } });
      expect(await completeRun(planner.id, ok)).toBe(true);
      const remote = await getDb().run.create({
        data: { projectId: project.id, kind: "executor", status: "running", adapter: "demo", agentProfileId: profile.id, remote: true, leaseExpiresAt: new Date(Date.now() + 60_000) },
      });
      expect(await completeRun(remote.id, { ...ok, status: "failed", exitCode: 1, error: "exit code 1" })).toBe(true);
      await waitUntil("the wake-up", async () => woken.length > 0);
      expect(woken).toEqual([team.id]);
    } finally {
      await sub.quit();
    }
  });
});
