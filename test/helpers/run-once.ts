import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { executeRun } from "@/lib/runs/execute";
import { mergeRun } from "@/lib/runs/merge";

/**
 * This test process plays the worker: one tick, then the run it queued, then its merge —
 * the same lib calls the queue processors make, on real Postgres, Redis, git and processes.
 */
export async function tickAndRun(projectId: string, now?: () => Date) {
  const tick = await runTick(projectId, now);
  const run = await getDb().run.findFirst({ where: { projectId, status: "queued" }, orderBy: { queuedAt: "desc" } });
  if (!run) return { tick, run: null };
  await executeRun(run.id);
  await mergeRun(run.id);
  return { tick, run: await getDb().run.findUniqueOrThrow({ where: { id: run.id }, include: { prompt: true } }) };
}
