import type { Prisma } from "@/lib/db";

type Tx = Prisma.TransactionClient;

/**
 * A run of this prompt ended without success: count the attempt, then retry (back to
 * pending) or give up (failed, with the failure log kept for the planner — seed 002).
 */
export async function failPromptAttempt(tx: Tx, promptId: string, failureLog: string | null, countAttempt = true) {
  const prompt = await tx.prompt.findUniqueOrThrow({ where: { id: promptId } });
  if (prompt.status !== "in_progress") return prompt;
  const attempts = prompt.attempts + (countAttempt ? 1 : 0);
  const exhausted = attempts >= prompt.maxAttempts;
  return tx.prompt.update({
    where: { id: promptId },
    data: {
      attempts,
      status: exhausted ? "failed" : "pending",
      failureLog: failureLog ?? prompt.failureLog,
      completedAt: exhausted ? new Date() : null,
    },
  });
}

/** The spawn cooldown is cleared when an executor or planner run ends (seed 000). */
export async function clearSpawnCooldown(tx: Tx, projectId: string) {
  await tx.loopState.update({ where: { projectId }, data: { lastSpawnAt: null } });
}
