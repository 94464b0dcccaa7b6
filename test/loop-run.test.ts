import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { addPrompt, createTeamWithProject, peakConcurrency, waitUntil } from "./helpers/fixtures";
import { waitUntilGone } from "@/lib/agents/testing";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

const workers: ReturnType<typeof startWorkerProcess>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => stopWorkerProcess(w, "SIGKILL")));
});

const fileEdit = (path: string, content: string, sleepMs = 300) => `sleep ${sleepMs}\n\n\`\`\`file ${path}\n${content}\n\`\`\`\n`;

describe("the loop runs a project's prompts with real worker processes and the demo agent", () => {
  it("runs prompts in dependency and priority order within the parallel limit, then merges them", async () => {
    const { project, repoPath } = await createTeamWithProject({ maxParallel: 2, cooldownMs: 0 });
    await addPrompt(project.id, { number: 1, title: "one", body: fileEdit("one.txt", "1", 1500), priority: 3 });
    await addPrompt(project.id, { number: 2, title: "two", body: fileEdit("two.txt", "2", 1500), priority: 3 });
    await addPrompt(project.id, { number: 3, title: "three", body: fileEdit("three.txt", "3"), priority: 1, dependencies: [1, 2] });
    await addPrompt(project.id, { number: 4, title: "four", body: fileEdit("four.txt", "4"), priority: 4 });

    const worker = startWorkerProcess();
    workers.push(worker);
    await waitForWorkers(worker);
    await enqueueTick(project.id, "test start");

    const db = getDb();
    await waitUntil("all prompts done and merged", async () => {
      const runs = await db.run.findMany({ where: { projectId: project.id } });
      const prompts = await db.prompt.findMany({ where: { projectId: project.id } });
      return prompts.every((p) => p.status === "done") && runs.length === 4 && runs.every((r) => r.mergeStatus === "merged");
    }, 120_000).catch((err) => { throw new Error(`${err.message}\n${worker.output()}`); });

    const runs = await db.run.findMany({ where: { projectId: project.id }, include: { prompt: true }, orderBy: { startedAt: "asc" } });
    const byNumber = new Map(runs.map((r) => [r.prompt!.number, r]));
    // P3 (priority 1) waits for its dependencies; P4 (priority 4) starts before P3 only if a slot was free.
    expect(byNumber.get(3)!.startedAt!.getTime()).toBeGreaterThanOrEqual(byNumber.get(1)!.finishedAt!.getTime());
    expect(byNumber.get(3)!.startedAt!.getTime()).toBeGreaterThanOrEqual(byNumber.get(2)!.finishedAt!.getTime());
    // Never more than 2 executors at once.
    expect(peakConcurrency(runs)).toBeLessThanOrEqual(2);
    // Each prompt ran exactly once, on its own branch, and its commit reached main.
    expect(runs.map((r) => r.prompt!.number).sort()).toEqual([1, 2, 3, 4]);
    for (const r of runs) expect(r.branch).toMatch(/^ringmaster\/\d+-/);
    const log = execFileSync("git", ["log", "--format=%s", "main"], { cwd: repoPath }).toString();
    for (const n of [1, 2, 3, 4]) expect(log).toContain(`feat(prompt-${n}):`);
    expect(readFileSync(join(repoPath, "three.txt"), "utf8").trim()).toBe("3");
    // Seed 003: merge, close the task, then clean up the worktree.
    await waitUntil("merged worktrees to be removed", async () => runs.every((r) => !existsSync(r.worktreePath!)));
    const activity = await db.activityEvent.findMany({ where: { projectId: project.id } });
    expect(activity.some((a) => a.type === "taskCompleted" && a.message.includes("merged into main"))).toBe(true);
    // A worker start (up to 60 s) and four sandboxed runs and merges on a loaded machine outlast the 60 s default.
  }, 240_000);

  it("notices a SIGKILLed worker's run through its lease and re-runs the prompt once", async () => {
    const { project } = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
    const prompt = await addPrompt(project.id, { number: 1, title: "slow", body: fileEdit("slow.txt", "done", 4000) });
    // Six renewals may be missed before the lease lapses: a worker stalled for a few seconds on a
    // loaded machine keeps its run (a short TTL made a live run "lost").
    const env = { LEASE_TTL_MS: "6000", LEASE_RENEW_MS: "1000" };
    const first = startWorkerProcess(env);
    workers.push(first);
    await waitForWorkers(first);
    await enqueueTick(project.id, "test start");
    const db = getDb();
    const run = await waitUntil("the run to start", () => db.run.findFirst({ where: { projectId: project.id, status: "running", pid: { not: null } } }));
    await stopWorkerProcess(first, "SIGKILL");

    const second = startWorkerProcess(env);
    workers.push(second);
    await waitForWorkers(second);
    const lost = await waitUntil("the run to be marked lost", async () => {
      await enqueueTick(project.id, "test poll");
      const r = await db.run.findUnique({ where: { id: run.id } });
      return r?.status === "lost" ? r : null;
    }, 30_000);
    // Noticed through its lease (the sweeper ends it only after the lease lapsed), not by anything
    // else; how soon after the kill is timing, which bench:chaos measures.
    expect(lost.error).toBe("lease expired: the worker running this agent stopped renewing it");
    expect(lost.finishedAt!.getTime()).toBeGreaterThanOrEqual(lost.leaseExpiresAt!.getTime());
    // The orphaned agent died with its supervisor: no process with that pid remains.
    expect(await waitUntilGone(run.pid!, 10_000)).toBe(true);

    await waitUntil("the prompt to be done", async () => (await db.prompt.findUnique({ where: { id: prompt.id } }))?.status === "done", 30_000);
    const runs = await db.run.findMany({ where: { promptId: prompt.id }, orderBy: { queuedAt: "asc" } });
    expect(runs.map((r) => r.status)).toEqual(["lost", "succeeded"]);
    expect(runs[1].attempt).toBe(1);
    // A lost run is not the prompt's failure: no attempt spent.
    expect((await db.prompt.findUnique({ where: { id: prompt.id } }))!.attempts).toBe(0);
    // Two worker starts (up to 60 s each) and the waits above outlast the 60 s default on a loaded machine.
  }, 240_000);
});
