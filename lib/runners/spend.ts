import { getDb } from "@/lib/db";
import { writeLedgerLines } from "@/lib/budgets/ledger";
import { alertBudgets } from "@/lib/threads/notices";

/** `inputTokens` includes the cached input (`cacheReadTokens` read, `cacheWriteTokens` written). */
export type RemoteUsage = { costUsd?: number; inputTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number; outputTokens?: number };

/**
 * A remote run's spend goes to the same ledger as a worker's, so budgets hold across local and
 * remote runs alike. The runner reports its run's totals so far (its guard priced them with the
 * team's table): one ledger line per run that each report overwrites, counted once however often
 * it is sent.
 */
export async function recordRemoteSpend(runId: string, used: RemoteUsage): Promise<void> {
  if (used.costUsd === undefined && used.inputTokens === undefined && used.outputTokens === undefined) return;
  const run = await getDb().run.findUniqueOrThrow({
    where: { id: runId },
    select: { projectId: true, agentProfileId: true, model: true, project: { select: { teamId: true } }, prompt: { select: { createdById: true } } },
  });
  const project = { id: run.projectId, teamId: run.project.teamId };
  await writeLedgerLines(
    { runId, teamId: project.teamId, projectId: project.id, agentProfileId: run.agentProfileId, queuedById: run.prompt?.createdById ?? null },
    // The ledger's input is the uncached part (cache writes included) beside the cache reads, as a worker's lines are.
    [{
      key: "runner", model: run.model, inputTokens: Math.max(0, (used.inputTokens ?? 0) - (used.cacheReadTokens ?? 0)), cachedTokens: used.cacheReadTokens ?? 0,
      cacheWriteTokens: used.cacheWriteTokens ?? 0, outputTokens: used.outputTokens ?? 0, costUsd: used.costUsd ?? 0,
    }],
  );
  await alertBudgets(project);
}
