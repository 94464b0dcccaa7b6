import { getDb } from "@/lib/db";
import { SYSTEM, type AuditBy } from "@/lib/audit/record";
import { recordChange } from "@/lib/activity/change";
import { removeWorktree } from "@/lib/git";
import { clonePath } from "@/lib/github/repo";
import { isLiveRunStatus, LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { RunStateError } from "@/lib/runs/cancel";

type Project = { id: string; teamId: string; repoKind: string; repoPath: string | null; baseBranch: string; activeBranch: string | null };

/**
 * Removes the worktree a run left because its work did not land (a merge conflict, a failed
 * merge or run): a person looked and decided. The branch keeps the commits (only the folder
 * goes), and the run's page keeps its diff.
 */
export async function discardRunWorktree(project: Project, runId: string, by: AuditBy = SYSTEM) {
  const db = getDb();
  const run = await db.run.findFirstOrThrow({ where: { id: runId, projectId: project.id }, include: { prompt: { select: { branch: true, status: true, number: true, title: true } } } });
  if (!run.worktreePath || !run.branch) throw new RunStateError("this run has no worktree to discard");
  if (isLiveRunStatus(run.status) || run.mergeStatus === "pending" || run.mergeStatus === "merged") {
    throw new RunStateError("only the worktree of work that did not land can be discarded");
  }
  // A retry of the prompt continues on the same branch, in the same folder.
  const sharing = await db.run.count({ where: { worktreePath: run.worktreePath, id: { not: run.id }, OR: [{ status: { in: [...LIVE_RUN_STATUSES] } }, { mergeStatus: "pending" }] } });
  const retrying = run.prompt?.branch === run.branch && (run.prompt.status === "pending" || run.prompt.status === "in_progress");
  if (sharing > 0 || retrying) throw new RunStateError("the prompt's next attempt works in this worktree: it cannot be discarded now");
  const repoPath = project.repoKind === "github" ? clonePath(project.id) : project.repoPath!;
  await removeWorktree({ repoPath, path: run.worktreePath, branch: run.branch, baseBranch: project.activeBranch ?? project.baseBranch, discardUnmerged: true });
  const n = await db.run.updateMany({ where: { id: runId, worktreePath: run.worktreePath }, data: { worktreePath: null, discardedAt: new Date() } });
  if (n.count === 0) return;
  const label = run.prompt ? `#${run.prompt.number} ${run.prompt.title}` : `${run.kind} run`;
  await recordChange(project, {
    audit: { by, action: "run.worktree_discarded", target: { type: "run", id: runId }, before: { worktreePath: run.worktreePath, branch: run.branch, mergeStatus: run.mergeStatus } },
    activity: ["runChange", `${label}: worktree ${run.worktreePath} discarded (branch ${run.branch} keeps its commits)`, { runId, promptId: run.promptId ?? undefined }],
  });
}
