import { z } from "zod";
import { SYSTEM, type AuditBy } from "@/lib/audit/record";
import { commitChange } from "@/lib/activity/change";
import { branchNameField } from "@/lib/git/ref-name";
import { planningKeyForBranch } from "@/lib/prompts/names";
import { checkLocalRepository } from "@/lib/projects/repo-check";
import { requireGithubBranchHead } from "@/lib/github/branch-head";

export const projectPatch = z.object({
  name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  repoPath: z.string().trim().startsWith("/", "must be an absolute path to a git repository"),
  baseBranch: branchNameField,
}).partial().strict();

/** Renames a project or points it at another repository path or base branch. */
export async function updateProject(project: { id: string; teamId: string; repoKind: string; name: string; repoPath: string | null; baseBranch: string; githubOwner: string | null; githubRepo: string | null; githubConnectionId: string | null }, raw: unknown, by: AuditBy = SYSTEM) {
  const patch = projectPatch.parse(raw);
  if (patch.repoPath && project.repoKind !== "local") {
    throw new z.ZodError([{ code: "custom", path: ["repoPath"], message: "applies to local repositories only", input: patch.repoPath }]);
  }
  // Every change of path or branch is checked as at create: the pair must name a real branch.
  if (project.repoKind === "local" && (patch.repoPath || patch.baseBranch)) {
    const checked = await checkLocalRepository(project.teamId, patch.repoPath ?? project.repoPath!, patch.baseBranch ?? project.baseBranch);
    if (patch.repoPath) patch.repoPath = checked.repoPath;
  }
  if (project.repoKind === "github" && patch.baseBranch) await requireGithubBranchHead(project, patch.baseBranch);
  // A GitHub project has no checkout whose branch could tell: its runs follow the base branch set here.
  const follow = project.repoKind === "github" && patch.baseBranch ? { activeBranch: patch.baseBranch, planningKey: planningKeyForBranch(patch.baseBranch) } : {};
  const before = Object.fromEntries(Object.keys(patch).map((k) => [k, project[k as keyof typeof patch]]));
  return commitChange(project, (tx) => tx.project.update({ where: { id: project.id }, data: { ...patch, ...follow } }), () => ({
    audit: { by, action: "project.updated", target: { type: "project", id: project.id }, before, after: patch },
    activity: ["projectChange", `Project changed: ${Object.keys(patch).join(", ")}`],
  }));
}

export const CLOSED_WITH_PROJECT = "closed: the project was archived";

/** Archives a project: it leaves the lists, its periodic tick stops and what waited for a decision is closed; its history stays. */
export async function archiveProject(project: { id: string; teamId: string }, by: AuditBy = SYSTEM) {
  const now = new Date();
  await commitChange(project, async (tx) => {
    await tx.project.update({ where: { id: project.id }, data: { archivedAt: now } });
    await tx.loopState.update({ where: { projectId: project.id }, data: { mode: "stopped" } });
    await tx.approval.updateMany({ where: { projectId: project.id, status: "pending" }, data: { status: "rejected", decidedAt: now, comment: CLOSED_WITH_PROJECT } });
  }, () => ({
    audit: { by, action: "project.archived", target: { type: "project", id: project.id } },
    activity: ["projectChange", "Project archived"],
    wakeUps: [{ kind: "schedule", projectId: project.id }],
  }));
}
