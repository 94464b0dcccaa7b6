import { getDb, type Prisma } from "@/lib/db";
import { diffPatch, diffSummary, type ChangedFile } from "@/lib/git";
import { getLogger } from "@/lib/log";

export type RunDiffView = {
  files: ChangedFile[];
  insertions: number;
  deletions: number;
  patch: string;
  truncated: boolean;
  /** "stored": kept in Postgres at commit time; "worktree": read live from a running agent's files. */
  source: "stored" | "worktree";
};

const totals = (files: ChangedFile[]) => ({
  insertions: files.reduce((n, f) => n + f.insertions, 0),
  deletions: files.reduce((n, f) => n + f.deletions, 0),
});

/**
 * Keeps what a run committed, so its page shows the work after the merge removed the worktree
 * and branch. Idempotent (a retried step writes the same row); a failure costs the page its
 * diff, never the run its outcome.
 */
export async function recordRunDiff(runId: string, worktree: string, baseSha: string, headSha: string): Promise<void> {
  try {
    const { changed } = await diffSummary(worktree, baseSha, headSha);
    const { patch, truncated } = await diffPatch(worktree, baseSha, changed, headSha);
    const data = { baseSha, headSha, files: changed as unknown as Prisma.InputJsonValue, patch, truncated };
    await getDb().runDiff.upsert({ where: { runId }, create: { runId, ...data }, update: data });
  } catch (err) {
    getLogger("runs").warn({ runId, err: (err as Error).message }, "could not keep the run's diff");
  }
}

/** The diff a run's page shows: the kept one, or a live one from the worktree of a run still at work. */
export async function getRunDiff(run: { id: string; worktreePath: string | null; baseSha: string | null }): Promise<RunDiffView | null> {
  const stored = await getDb().runDiff.findUnique({ where: { runId: run.id } });
  if (stored) {
    const files = stored.files as unknown as ChangedFile[];
    return { files, ...totals(files), patch: stored.patch, truncated: stored.truncated, source: "stored" };
  }
  if (!run.worktreePath || !run.baseSha) return null;
  try {
    const { changed } = await diffSummary(run.worktreePath, run.baseSha);
    const { patch, truncated } = await diffPatch(run.worktreePath, run.baseSha, changed);
    return { files: changed, ...totals(changed), patch, truncated, source: "worktree" };
  } catch {
    // The worktree went away between the read of the row and git's: there is nothing to show.
    return null;
  }
}
