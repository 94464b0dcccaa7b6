import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { createTeamWithProject, peakConcurrency, waitForCount } from "./helpers/fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

// A seeded pseudo-random generator, so a failure can be replayed with the printed seed.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const PROMPTS = 120;
const MAX_PARALLEL = 3;
const workers: ReturnType<typeof startWorkerProcess>[] = [];
afterAll(async () => { await Promise.all(workers.map((w) => stopWorkerProcess(w, "SIGKILL"))); });

describe("three worker processes on one project (invariants 1 and 2)", () => {
  it(`runs ${PROMPTS} prompts with random dependencies and nudges: none twice, never over the limit, dependencies first`, async () => {
    const seed = Number(process.env.PROPERTY_SEED ?? Date.now() % 100_000);
    const random = rng(seed);
    const { project } = await createTeamWithProject({ maxParallel: MAX_PARALLEL, cooldownMs: 0 });
    const db = getDb();
    const deps = new Map<number, number[]>();
    await db.prompt.createMany({
      data: Array.from({ length: PROMPTS }, (_, i) => {
        const number = i + 1;
        const d = [...new Set(Array.from({ length: Math.floor(random() * 3) }, () => 1 + Math.floor(random() * (number - 1))))].filter((n) => n >= 1 && n < number);
        deps.set(number, d);
        return {
          projectId: project.id, planningKey: "main", number, title: `p${number}`, priority: 1 + Math.floor(random() * 4), dependencies: d,
          body: `\`\`\`file f/${number}.txt\n${number}\n\`\`\`\n`,
        };
      }),
    });
    for (let i = 0; i < 3; i++) workers.push(startWorkerProcess({ WORKER_ID: `w${i}` }));
    await Promise.all(workers.map((w) => waitForWorkers(w)));

    let done = false;
    const nudging = (async () => {
      while (!done) {
        await enqueueTick(project.id, "random nudge");
        await new Promise((r) => setTimeout(r, random() * 150));
      }
    })();
    try {
      await waitForCount("every prompt done", () => db.prompt.count({ where: { projectId: project.id, status: "done" } }), PROMPTS);
    } catch (err) {
      throw new Error(`seed ${seed}: ${(err as Error).message}\n${workers.map((w) => w.output().slice(-2000)).join("\n---\n")}`);
    } finally {
      done = true;
      await nudging;
    }

    const runs = await db.run.findMany({ where: { projectId: project.id }, include: { prompt: true } });
    // Invariant 1: exactly one successful run per prompt, and two runs of one prompt never overlap.
    // A run that failed or lost its lease may be retried; each such run is named in the message.
    const summary = runs.filter((r) => r.status !== "succeeded").map((r) => `P${r.prompt!.number} ${r.status} ${r.error ?? ""}`);
    const succeeded = runs.filter((r) => r.status === "succeeded");
    expect(succeeded, `seed ${seed}; other runs: ${summary.join(" | ")}`).toHaveLength(PROMPTS);
    expect(new Set(succeeded.map((r) => r.promptId)).size).toBe(PROMPTS);
    for (const promptId of new Set(runs.map((r) => r.promptId))) {
      expect(peakConcurrency(runs.filter((r) => r.promptId === promptId)), `seed ${seed}; other runs: ${summary.join(" | ")}`).toBe(1);
    }
    // Invariant 2: a slot is held from the claim (queuedAt) to the end (finishedAt).
    expect(peakConcurrency(runs), `seed ${seed}`).toBeLessThanOrEqual(MAX_PARALLEL);
    // Dependencies first: a prompt was claimed only after every dependency's run finished.
    const byNumber = new Map(runs.map((r) => [r.prompt!.number, r]));
    for (const [number, d] of deps) {
      for (const dep of d) expect(byNumber.get(number)!.queuedAt.getTime()).toBeGreaterThanOrEqual(byNumber.get(dep)!.finishedAt!.getTime());
    }
    // The work was spread over the worker processes.
    expect(new Set(runs.map((r) => r.workerId)).size).toBeGreaterThan(1);
  }, 900_000); // bounded by the stall check above, not by the machine's speed
});
