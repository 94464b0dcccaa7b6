import { getDb } from "@/lib/db";
import { readHeadBranch } from "@/lib/git/head";
import { planningKeyForBranch } from "@/lib/prompts/names";
import { recordActivity } from "@/lib/activity/record";

/**
 * Seed 000's git-branch check: the checked-out branch of a local repository is the
 * context key. A change moves the project to that branch's planning key.
 */
export async function checkBranch(project: { id: string; teamId: string; repoKind: string; repoPath: string | null; activeBranch: string | null }) {
  if (project.repoKind !== "local" || !project.repoPath) return null;
  let branch: string | null = null;
  try {
    branch = readHeadBranch(project.repoPath);
  } catch {
    return null;
  }
  if (!branch || branch === project.activeBranch) return null;
  const planningKey = planningKeyForBranch(branch);
  await getDb().project.update({ where: { id: project.id }, data: { activeBranch: branch, planningKey } });
  await recordActivity(project, "branchChange", `Branch changed to ${branch} (planning key ${planningKey})`);
  return { branch, planningKey };
}
