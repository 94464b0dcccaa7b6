import { getDb, type PullRequestState } from "@/lib/db";
import { branchExists, branchSha, removeWorktree } from "@/lib/git";
import { getLogger } from "@/lib/log";
import { clonePath } from "@/lib/github/repo";
import { changePromptStatus, type PromptStatusChange } from "@/lib/prompts/transitions";
import { commitChange } from "@/lib/activity/change";

export interface GithubPullView {
  number: number;
  state: string;
  merged?: boolean | null;
  merged_at?: string | null;
  closed_at?: string | null;
  head: { sha: string; ref: string };
}

export const stateOfPull = (p: GithubPullView): PullRequestState =>
  p.merged || p.merged_at ? "merged" : p.state === "closed" ? "closed" : "open";

// What a pull request's new state means for the prompt it carries.
const promptChangeFor = {
  merged: { from: "in_progress", to: "done" },
  closed: { from: "in_progress", to: "cancelled" },
  open: { from: "cancelled", to: "in_progress" },
} as const satisfies Record<PullRequestState, PromptStatusChange>;

/**
 * Records a PR's state as GitHub reports it. Merged: the prompt is done and its worktree goes
 * (the work is on GitHub); closed unmerged: the prompt is cancelled and its work kept.
 * Idempotent: only a change of state does anything.
 */
export async function applyPullState(projectId: string, view: GithubPullView): Promise<PullRequestState | null> {
  const db = getDb();
  const pr = await db.pullRequest.findUnique({ where: { projectId_number: { projectId, number: view.number } }, include: { project: true } });
  if (!pr) return null;
  const state = stateOfPull(view);
  const headSha = state === "open" ? view.head.sha : pr.headSha;
  const label = `PR #${pr.number}`;
  // The new state, the prompt's and the wake-up commit together.
  const changed = await commitChange(pr.project, async (tx) => {
    const n = await tx.pullRequest.updateMany({
      where: { id: pr.id, state: { not: state } },
      data: { state, headSha, mergedAt: state === "merged" ? new Date(view.merged_at ?? Date.now()) : null, closedAt: state === "open" ? null : new Date(view.closed_at ?? Date.now()) },
    });
    if (n.count === 1 && pr.promptId) await changePromptStatus(pr.promptId, promptChangeFor[state], tx);
    return n.count === 1;
  }, (done) => done ? { activity: [state === "merged" ? "taskCompleted" : "activity", `${label} ${state}`, { promptId: pr.promptId ?? undefined }], nudge: `${label} ${state}` } : null);
  if (!changed) {
    if (headSha !== pr.headSha) await db.pullRequest.update({ where: { id: pr.id }, data: { headSha } });
    return state;
  }
  if (state === "merged") await removeMergedWorktree(pr.projectId, pr.headBranch, pr.baseBranch, view.head.sha);
  return state;
}

// Invariant 5: the worktree goes only when GitHub has every local commit of the branch
// (a squash merge leaves them unreachable from the base, hence the explicit tip check).
async function removeMergedWorktree(projectId: string, branch: string, baseBranch: string, mergedHeadSha: string) {
  const runs = await getDb().run.findMany({ where: { projectId, branch, worktreePath: { not: null } }, select: { worktreePath: true }, distinct: ["worktreePath"] });
  const repoPath = clonePath(projectId);
  if (!(await branchExists(repoPath, branch).catch(() => false))) return;
  if ((await branchSha(repoPath, branch)) !== mergedHeadSha) {
    getLogger("github").warn({ projectId, branch }, "merged PR's branch has local commits GitHub does not: worktree kept");
    return;
  }
  for (const { worktreePath } of runs) {
    await removeWorktree({ repoPath, path: worktreePath!, branch, baseBranch, discardUnmerged: true }).catch((err) =>
      getLogger("github").warn({ projectId, branch, err: (err as Error).message }, "worktree of a merged PR not removed"));
  }
}
