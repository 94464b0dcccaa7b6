import { getDb } from "@/lib/db";
import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { recordActivity } from "@/lib/activity/record";
import { readChecks } from "@/lib/github/checks";
import { applyPullState } from "@/lib/github/pull-state";
import { remoteAuth } from "@/lib/github/repo";
import { isOwn } from "@/lib/github/review";

export type MergeVerdict = "merged" | "disabled" | "checks" | "review" | "awaiting_approval" | "refused" | "not_open";

/**
 * Merges an open PR when the project's policy allows it: auto-merge on, checks green, no fix
 * under way or pending, no reviewer's latest word "changes requested", and a person's approval
 * when the project asks for one. The merge names the head sha GitHub must still have.
 */
export async function mergeIfAllowed(pullRequestId: string): Promise<MergeVerdict> {
  const db = getDb();
  const pr = await db.pullRequest.findUnique({ where: { id: pullRequestId }, include: { project: { include: { settings: true } } } });
  if (!pr || pr.state !== "open" || !pr.headSha) return "not_open";
  const settings = pr.project.settings!;
  if (!settings.autoMerge) return "disabled";
  const { client, owner, repo, botLogin } = await remoteAuth(pr.project);
  const checks = await readChecks(client, { owner, repo, sha: pr.headSha });
  if (checks.state !== "success") return "checks";
  const [liveFixes, capAsked] = await Promise.all([
    db.run.count({ where: { pullRequestId: pr.id, status: { in: [...LIVE_RUN_STATUSES] } } }),
    db.approval.count({ where: { pullRequestId: pr.id, kind: "fix_cycle_cap", status: "pending" } }),
  ]);
  if (liveFixes || capAsked) return "review";
  const reviews = await client.paginate(client.rest.pulls.listReviews, { owner, repo, pull_number: pr.number, per_page: 100 });
  const latest = new Map<string, string>();
  for (const r of reviews) if (r.user && !isOwn(r.user.login, botLogin) && r.state !== "COMMENTED") latest.set(r.user.login, r.state);
  if ([...latest.values()].includes("CHANGES_REQUESTED")) return "review";
  if (settings.approveMerges) {
    const approvals = await db.approval.findMany({ where: { pullRequestId: pr.id, kind: "pr_merge" } });
    if (!approvals.some((a) => a.status === "approved")) {
      if (!approvals.some((a) => a.status === "pending")) {
        await db.approval.create({ data: { teamId: pr.project.teamId, projectId: pr.projectId, kind: "pr_merge", pullRequestId: pr.id, promptId: pr.promptId, requestedBy: "system", comment: `Merge PR #${pr.number}?` } });
        await recordActivity(pr.project, "activity", `PR #${pr.number} is ready: waiting for a person to approve the merge`);
      }
      return "awaiting_approval";
    }
  }
  try {
    await client.rest.pulls.merge({ owner, repo, pull_number: pr.number, merge_method: settings.mergeMethod, sha: pr.headSha });
  } catch (err) {
    const status = (err as { status?: number }).status;
    // 405 not mergeable (protection, conflicts), 409 head moved: the next event or poll looks again.
    if (status === 405 || status === 409) {
      await recordActivity(pr.project, "activity", `PR #${pr.number}: GitHub refused the merge (${status}: ${(err as Error).message.slice(0, 200)})`);
      return "refused";
    }
    throw err;
  }
  const { data } = await client.rest.pulls.get({ owner, repo, pull_number: pr.number });
  await applyPullState(pr.projectId, data);
  return "merged";
}
