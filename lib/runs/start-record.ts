import { getPool, prepared } from "@/lib/db";

// The writes of every run's start, one statement each on the pool: through Prisma each was its
// query compiler's work too (about a millisecond of the worker's main thread, beside the start's
// other steps). Prisma stamps these columns so; a row gone meanwhile (its project deleted) fails
// the start, as Prisma's update did.

/** The prompt's work branch, kept across its retries: recorded once its first run made it. */
export async function recordPromptBranch(promptId: string, branch: string): Promise<void> {
  const { rowCount } = await getPool().query(prepared(`UPDATE "Prompt" SET branch = $2, "updatedAt" = $3::timestamp WHERE id = $1`, [promptId, branch, new Date().toISOString()]));
  if (!rowCount) throw new Error(`prompt ${promptId} no longer exists`);
}

/** The run is running, on its branch in its worktree, from the base commit it started at. */
export async function recordRunStarted(runId: string, at: { branch: string; worktreePath: string; baseSha: string | null | undefined }): Promise<void> {
  const { rowCount } = await getPool().query(prepared(
    `UPDATE "Run" SET status = 'running', "startedAt" = $2::timestamp, branch = $3, "worktreePath" = $4, "baseSha" = $5 WHERE id = $1`,
    [runId, new Date().toISOString(), at.branch, at.worktreePath, at.baseSha ?? null]));
  if (!rowCount) throw new Error(`run ${runId} no longer exists`);
}
