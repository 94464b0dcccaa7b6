import { getDb, type RunStatus } from "@/lib/db";
import { publishOutbox, recordOutbox, type OutboxMessage } from "@/lib/queues";
import { revokeRunToken } from "@/lib/auth/tokens";
import { recordActivity } from "@/lib/activity/record";
import { announce } from "@/lib/events/publish";
import { recordAudit, SYSTEM } from "@/lib/audit/record";
import { clearSpawnCooldown, failPromptAttempt } from "@/lib/runs/finish-prompt";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { finishLeadRun } from "@/lib/threads/lead-run";
import { advanceRoutes } from "@/lib/threads/routing";
import { attemptsText } from "@/lib/run-statuses";
import { wakeRunners } from "@/lib/redis/runner-wake";

export interface RunOutcome {
  status: Extract<RunStatus, "succeeded" | "failed" | "timed_out" | "cancelled">;
  exitCode: number | null;
  signal: string | null;
  error?: string;
  commitSha?: string | null;
  summary?: string;
  costUsd?: number;
  inputTokens?: number;
  outputTokens?: number;
  failureLog?: string;
  /** A shutdown hands the prompt back without counting the attempt. */
  countAttempt?: boolean;
  /** false: the prompt fails now, whatever attempts are left (a person decides on a retry). */
  retry?: boolean;
}

/**
 * Records how a run ended. Idempotent: only a live run is finished, so a replayed
 * report changes nothing. Success → prompt done and merge queued; failure → retry or fail.
 */
export async function completeRun(runId: string, outcome: RunOutcome): Promise<boolean> {
  const now = new Date();
  const result = await getDb().$transaction(async (tx) => {
    const n = await tx.run.updateMany({
      where: { id: runId, status: { in: ["starting", "running"] } },
      data: {
        status: outcome.status, exitCode: outcome.exitCode, signal: outcome.signal, error: outcome.error ?? null,
        commitSha: outcome.commitSha ?? undefined, summary: outcome.summary, costUsd: outcome.costUsd,
        inputTokens: outcome.inputTokens, outputTokens: outcome.outputTokens, finishedAt: now, leaseExpiresAt: null,
        mergeStatus: outcome.status === "succeeded" && outcome.commitSha ? "pending" : undefined,
      },
    });
    if (n.count !== 1) return null;
    const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, include: { project: true, prompt: true } });
    let prompt = run.prompt;
    // With work to merge the prompt stays in progress until the merge lands, so its
    // dependents start from a base that already has it (seed 003: merge, then close).
    if (prompt && outcome.status === "succeeded" && !outcome.commitSha) {
      await changePromptStatus(prompt.id, { from: "in_progress", to: "done" }, tx, now);
      prompt = await tx.prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    } else if (prompt && outcome.status !== "succeeded") {
      prompt = await failPromptAttempt(tx, prompt.id, outcome.failureLog ?? null, outcome.countAttempt ?? true, outcome.retry ?? true, now);
    }
    // A lead run answers a thread; it never held one of the loop's spawn slots.
    if (run.kind !== "lead") await clearSpawnCooldown(tx, run.projectId);
    // The merge and the wake-up commit with the outcome: Redis being away loses neither.
    const wakeUps: OutboxMessage[] = [{ kind: "tick", projectId: run.projectId, reason: `run ${outcome.status}` }];
    if (outcome.status === "succeeded" && outcome.commitSha) wakeUps.unshift({ kind: "merge", runId });
    const outbox = await recordOutbox(tx, wakeUps);
    await recordAudit({
      teamId: run.project.teamId, by: SYSTEM, action: `run.${outcome.status}`, target: { type: "run", id: runId },
      before: { status: "running" }, after: { status: outcome.status, exitCode: outcome.exitCode, promptStatus: prompt?.status },
    }, tx);
    return { run, prompt, outbox };
  });
  if (!result) return false;
  const { run, prompt, outbox } = result;
  await revokeRunToken(runId);
  if (run.kind === "lead") await finishLeadRun(run, outcome);
  // The worker's result is in: the lead's route (or verify) turn for this prompt or run is evaluated.
  await advanceRoutes(run.promptId, "evaluated", runId);
  await announce(run.project.teamId, { type: "agentsChange", projectId: run.projectId, runId });
  // A remote worker's run ended: a lead runner has its worker_finished trigger.
  if (run.remote && run.kind === "executor") await wakeRunners(run.project.teamId);
  const label = prompt ? `#${prompt.number} ${prompt.title}` : `${run.kind} run`;
  const ids = { runId, promptId: prompt?.id };
  if (outcome.status === "succeeded") {
    const message = outcome.commitSha ? `${label}: agent finished (${outcome.commitSha.slice(0, 7)}); merge queued` : `${label}: done (no changes)`;
    await recordActivity(run.project, outcome.commitSha ? "runChange" : "taskCompleted", message, ids);
  } else {
    const wait = prompt?.retryAt ? Math.ceil((prompt.retryAt.getTime() - now.getTime()) / 1000) : 0;
    const retry = `${attemptsText(prompt?.attempts ?? 0, prompt?.maxAttempts ?? 0)}${wait > 0 ? `; retry in ${wait}s` : ""}`;
    const next = prompt ? (prompt.status === "failed" ? "failed for good" : `back to pending (${retry})`) : "";
    const message = `${label}: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ""}${next ? `; ${next}` : ""}`;
    await recordActivity(run.project, "taskFailed", message, ids);
    // A person cancelling a run is not an error.
    if (outcome.status !== "cancelled") await announce(run.project.teamId, { type: "error", projectId: run.projectId, ...ids, message });
  }
  await publishOutbox(outbox);
  return true;
}
