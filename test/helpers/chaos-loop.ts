// A project of demo-agent prompts run by real worker processes, and the checks every chaos
// scenario makes: every prompt done exactly once, no overlapping runs of a prompt, no
// finished work re-run, parallelism back to its setting.
import { expect } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueTick, upsertTickScheduler } from "@/lib/queues";
import { createTeamWithProject, peakConcurrency, waitForCount, waitUntil } from "./fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./worker-process";

export const TICK_MS = 1000;
// Six renewals may be missed before a lease lapses (and a worker has six seconds to renew after
// Postgres returns): with 3 s, a worker stalled on a loaded 2-core machine lost live runs.
export const LEASE_TTL_MS = 6000;
export const SWEEP_MS = 500;
export const CHAOS_ENV = { LEASE_TTL_MS: String(LEASE_TTL_MS), LEASE_RENEW_MS: "1000", SWEEP_INTERVAL_MS: String(SWEEP_MS) };

export async function chaosProject(opts: { prompts: number; maxParallel: number; sleepMs: number }) {
  const { project } = await createTeamWithProject({ maxParallel: opts.maxParallel, cooldownMs: 0 });
  const db = getDb();
  await db.projectSettings.update({ where: { projectId: project.id }, data: { tickIntervalMs: TICK_MS } });
  await upsertTickScheduler(project.id, TICK_MS);
  await db.prompt.createMany({
    data: Array.from({ length: opts.prompts }, (_, i) => ({
      projectId: project.id, planningKey: "main", number: i + 1, title: `p${i + 1}`,
      body: `sleep ${opts.sleepMs}\n\n\`\`\`file f/${i + 1}.txt\n${i + 1}\n\`\`\`\n`,
    })),
  });
  return project;
}

export class Fleet {
  readonly workers: ReturnType<typeof startWorkerProcess>[] = [];
  async start(count: number, env: Record<string, string> = {}) {
    const started = Array.from({ length: count }, (_, i) => startWorkerProcess({ ...CHAOS_ENV, WORKER_ID: `w${this.workers.length + i}`, ...env }));
    this.workers.push(...started);
    await Promise.all(started.map((w) => waitForWorkers(w, 60_000)));
    return started;
  }
  /** The worker running a live run of this project (kill -9 targets it). */
  async workerOf(projectId: string) {
    const run = await waitUntil("a running run", () => getDb().run.findFirst({ where: { projectId, status: "running", pid: { not: null } } }));
    return { run, worker: this.workers[Number(run.workerId!.slice(1))] };
  }
  output = () => this.workers.map((w, i) => `--- w${i}\n${w.output().slice(-3000)}`).join("\n");
  /** Workers that ended by themselves (the tests only ever kill with a signal). */
  crashed = () => this.workers.filter((w) => w.exitCode !== null).map((w) => w.output().slice(-2000));
  stop = () => Promise.all(this.workers.splice(0).map((w) => stopWorkerProcess(w, "SIGKILL")));
}

/** Samples how many executors hold a slot, to see parallelism come back after a fault. */
export function sampleLive(projectId: string) {
  const samples: Array<{ at: number; live: number }> = [];
  let on = true;
  const loop = (async () => {
    while (on) {
      const live = await getDb().run.count({ where: { projectId, status: { in: ["queued", "starting", "running"] } } }).catch(() => null);
      if (live !== null) samples.push({ at: Date.now(), live });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    peakAfter: (t: number) => Math.max(0, ...samples.filter((s) => s.at >= t).map((s) => s.live)),
    stop: async () => { on = false; await loop; },
  };
}

export async function waitAllDone(projectId: string, count: number, fleet: Fleet, stallMs = 90_000) {
  const db = getDb();
  // Fails on a stall (no prompt done for stallMs), never on a loaded machine's total time.
  await waitForCount("every prompt done and merged", () => db.prompt.count({ where: { projectId, status: "done" } }).catch(() => 0), count, stallMs).catch(async (err) => {
    const prompts = await db.prompt.findMany({ where: { projectId }, orderBy: { number: "asc" } });
    const runs = await db.run.findMany({ where: { projectId }, include: { prompt: true } });
    throw new Error(`${err.message}\nprompts: ${prompts.map((p) => `P${p.number}:${p.status}/${p.attempts}`).join(" ")}\nruns: ${runs.map((r) => `P${r.prompt?.number}:${r.status}/${r.mergeStatus}`).join(" ")}\n${fleet.output()}`);
  });
}

/** Every prompt done by exactly one successful run; runs of a prompt never overlap; nothing that finished ran again. */
export async function expectEveryPromptOnce(projectId: string, opts: { lost: number; fleet?: Fleet }) {
  const runs = await getDb().run.findMany({ where: { projectId }, include: { prompt: true }, orderBy: { queuedAt: "asc" } });
  const prompts = await getDb().prompt.findMany({ where: { projectId } });
  const describe = runs.map((r) => `P${r.prompt?.number}:${r.status}${r.error ? `(${r.error})` : ""}`).join(" | ") + (opts.fleet ? `\n${opts.fleet.output()}` : "");
  expect(opts.fleet?.crashed() ?? []).toEqual([]);
  expect(prompts.every((p) => p.status === "done"), describe).toBe(true);
  const succeeded = runs.filter((r) => r.status === "succeeded");
  expect(succeeded.map((r) => r.prompt!.number).sort((a, b) => a - b), describe).toEqual(prompts.map((p) => p.number).sort((a, b) => a - b));
  expect(succeeded.every((r) => r.mergeStatus === "merged"), describe).toBe(true);
  // Only runs whose worker died may have been re-run, and a re-run never spent an attempt.
  expect(runs.filter((r) => r.status !== "succeeded").map((r) => r.status), describe).toEqual(Array(opts.lost).fill("lost"));
  expect(prompts.map((p) => p.attempts), describe).toEqual(prompts.map(() => 0));
  for (const p of prompts) {
    const own = runs.filter((r) => r.promptId === p.id);
    expect(peakConcurrency(own), describe).toBe(1);
    // A run that finished its work (a commit) is the prompt's last run.
    expect(own.findIndex((r) => r.commitSha), describe).toBe(own.length - 1);
  }
  return runs;
}

/**
 * The sweeper, not anything else, ended these runs, and only once their lease had expired
 * (how soon after is timing: bench:chaos prints it beside its ceiling).
 */
export function expectLostBySweep(lost: Array<{ error: string | null; finishedAt: Date | null; leaseExpiresAt: Date | null }>) {
  for (const r of lost) {
    expect(r.error).toBe("lease expired: the worker running this agent stopped renewing it");
    expect(r.finishedAt!.getTime()).toBeGreaterThanOrEqual(r.leaseExpiresAt!.getTime());
  }
}

export const running = (projectId: string) => getDb().run.count({ where: { projectId, status: "running" } });

/**
 * Waits for the project's first tick that began after `since` (the loop moved again without
 * anyone nudging it; 30 s only guards against a hang) and says how long after it came.
 */
export async function nextTickAfter(projectId: string, since: number) {
  const state = await waitUntil("a tick after the fault", async () => {
    const s = await getDb().loopState.findUnique({ where: { projectId } }).catch(() => null);
    return s?.lastTickAt && s.lastTickAt.getTime() > since ? s : null;
  }, 30_000);
  return state.lastTickAt!.getTime() - since;
}

/** A project's loop started on two fresh workers, with its live runs sampled. */
export async function startLoop(fleet: Fleet, opts: Parameters<typeof chaosProject>[0]) {
  const project = await chaosProject(opts);
  await fleet.start(2);
  const live = sampleLive(project.id);
  await enqueueTick(project.id, "chaos start");
  return { project, live };
}
