import type { Prisma } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { retryBackoffMs } from "@/lib/runs/backoff";
import { changePromptStatus } from "@/lib/prompts/transitions";

type Tx = Prisma.TransactionClient;

/**
 * A run of this prompt ended without success: count the attempt, then retry (back to
 * pending, after a backoff that doubles with each failed attempt) or give up (failed, with
 * the failure log kept for the planner — seed 002).
 */
export async function failPromptAttempt(tx: Tx, promptId: string, failureLog: string | null, countAttempt = true, retry = true, now = new Date()) {
  const prompt = await tx.prompt.findUniqueOrThrow({ where: { id: promptId } });
  if (prompt.status !== "in_progress") return prompt;
  const attempts = prompt.attempts + (countAttempt ? 1 : 0);
  const to = !retry || attempts >= prompt.maxAttempts ? "failed" : "pending";
  // An attempt that was not the prompt's fault (a shutdown) goes back without waiting.
  const retryAt = to === "pending" && countAttempt ? new Date(now.getTime() + retryBackoffMs(getEnv().RETRY_BACKOFF_MS, attempts)) : null;
  await changePromptStatus(promptId, { from: "in_progress", to, data: { attempts, retryAt, failureLog: failureLog ?? prompt.failureLog } }, tx);
  return tx.prompt.findUniqueOrThrow({ where: { id: promptId } });
}

/**
 * The prompt's work succeeded but no longer applies to the base: it is redone from the current
 * base without spending an attempt (a conflict is not the prompt's failure), up to its own cap.
 */
export async function returnConflictedPrompt(tx: Tx, promptId: string, detail: string) {
  const prompt = await tx.prompt.findUniqueOrThrow({ where: { id: promptId } });
  if (prompt.status !== "in_progress") return prompt;
  const conflicts = await tx.run.count({ where: { promptId, mergeStatus: "conflict" } });
  const max = getEnv().MAX_MERGE_CONFLICTS;
  await changePromptStatus(promptId, conflicts < max
    ? { from: "in_progress", to: "pending", data: { failureLog: detail, retryAt: null } }
    : { from: "in_progress", to: "failed", data: { failureLog: `its work conflicted with the base ${conflicts} times; last: ${detail}` } }, tx);
  return tx.prompt.findUniqueOrThrow({ where: { id: promptId } });
}

/** The spawn cooldown is cleared when an executor or planner run ends (seed 000). */
export async function clearSpawnCooldown(tx: Tx, projectId: string) {
  await tx.loopState.update({ where: { projectId }, data: { lastSpawnAt: null } });
}

/**
 * A run of this prompt was lost (its worker died or was cut off): not the prompt's failure,
 * so it goes back to pending without spending an attempt — unless its runs keep being
 * lost (a prompt that kills its worker every time), which has its own cap.
 */
export async function returnLostRunPrompt(tx: Tx, promptId: string, maxLostRuns: number) {
  const lostRuns = await tx.run.count({ where: { promptId, status: "lost" } });
  await changePromptStatus(promptId, lostRuns < maxLostRuns
    ? { from: "in_progress", to: "pending" }
    : { from: "in_progress", to: "failed", data: { failureLog: `its runs were lost ${lostRuns} times (the worker running it died or was cut off each time)` } }, tx);
  return tx.prompt.findUniqueOrThrow({ where: { id: promptId } });
}
