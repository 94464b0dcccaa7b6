import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { SYSTEM, type AuditBy } from "@/lib/audit/record";
import { revokeRunToken } from "@/lib/auth/tokens";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { DomainError } from "@/lib/errors";
import { commitChange } from "@/lib/activity/change";

export class RunStateError extends DomainError {
  constructor(message: string) {
    super(409, "conflict", message);
  }
}

/**
 * Cancels a live run. Its supervisor notices at the next lease renewal (the row is no
 * longer live) and stops the agent's process group; the prompt is cancelled with it.
 */
export async function cancelRun(project: { id: string; teamId: string }, runId: string, by: AuditBy = SYSTEM) {
  const now = new Date();
  const run = await commitChange(project, async (tx) => {
    const n = await tx.run.updateMany({
      where: { id: runId, projectId: project.id, status: { in: [...LIVE_RUN_STATUSES] } },
      data: { status: "cancelled", finishedAt: now, error: "cancelled by a person", leaseExpiresAt: null },
    });
    if (n.count === 0) return null;
    const row = await tx.run.findUniqueOrThrow({ where: { id: runId }, include: { prompt: true } });
    if (row.promptId) {
      await changePromptStatus(row.promptId, { from: "in_progress", to: "cancelled" }, tx, now);
    }
    await tx.loopState.update({ where: { projectId: project.id }, data: { lastSpawnAt: null } });
    return row;
  }, (row) => row && {
    audit: { by, action: "run.cancelled", target: { type: "run", id: runId }, before: { status: "live" }, after: { status: "cancelled" } },
    activity: ["taskFailed", `${row.prompt ? `#${row.prompt.number} ${row.prompt.title}` : `${row.kind} run`}: run cancelled`, { runId, promptId: row.promptId ?? undefined }],
    nudge: "run cancelled",
  });
  if (!run) throw new RunStateError("only a queued or running run can be cancelled");
  await revokeRunToken(runId);
}
