import { getDb } from "@/lib/db";
import type { GithubClient } from "@/lib/github/client";
import { startFixRun, type FixOutcome } from "@/lib/github/fix-run";
import { remoteAuth } from "@/lib/github/repo";

export type ChecksVerdict = { state: "success" | "pending" | "failure"; failures: string[] };

const FAILED = new Set(["failure", "timed_out", "startup_failure", "action_required"]);
const MAX_OUTPUT = 6_000;

/** Every check run and commit status of a sha, reduced to one verdict with the failing output. */
export async function readChecks(client: GithubClient, o: { owner: string; repo: string; sha: string }): Promise<ChecksVerdict> {
  const [runs, combined] = await Promise.all([
    client.paginate(client.rest.checks.listForRef, { owner: o.owner, repo: o.repo, ref: o.sha, per_page: 100 }),
    client.rest.repos.getCombinedStatusForRef({ owner: o.owner, repo: o.repo, ref: o.sha }).then((r) => r.data),
  ]);
  const failures: string[] = [];
  let pending = false;
  for (const r of runs) {
    if (r.status !== "completed") pending = true;
    else if (FAILED.has(r.conclusion ?? "")) {
      const out = [r.output?.title, r.output?.summary, r.output?.text].filter(Boolean).join("\n\n");
      failures.push(`### Check run \`${r.name}\`: ${r.conclusion}${r.details_url ? ` (${r.details_url})` : ""}\n\n${out.slice(0, MAX_OUTPUT)}`);
    }
  }
  // GitHub reports "pending" for a commit without any status at all; only real statuses count.
  for (const s of combined.statuses ?? []) {
    if (s.state === "pending") pending = true;
    else if (s.state === "failure" || s.state === "error") {
      failures.push(`### Status \`${s.context}\`: ${s.state}${s.target_url ? ` (${s.target_url})` : ""}\n\n${s.description ?? ""}`);
    }
  }
  return { state: failures.length ? "failure" : pending ? "pending" : "success", failures };
}

/** A failing check on an open PR starts one fix run per head commit, with the failing output. */
export async function checkCiStatus(pullRequestId: string): Promise<{ verdict: ChecksVerdict; fix: FixOutcome | null } | null> {
  const db = getDb();
  const pr = await db.pullRequest.findUnique({ where: { id: pullRequestId }, include: { project: true } });
  if (!pr || pr.state !== "open" || !pr.headSha) return null;
  const sha = pr.headSha;
  const { client, owner, repo } = await remoteAuth(pr.project);
  const verdict = await readChecks(client, { owner, repo, sha });
  await db.pullRequest.updateMany({ where: { id: pr.id, headSha: sha }, data: { checksState: verdict.state } });
  if (verdict.state !== "failure") return { verdict, fix: null };
  const fix = await startFixRun({
    pullRequestId: pr.id,
    title: `Fix failing checks on PR #${pr.number}`,
    body: [
      `Continuous integration failed on pull request #${pr.number} (${pr.url}) at ${sha.slice(0, 7)}, branch \`${pr.headBranch}\`.`,
      "Make the checks pass; your changes are committed and pushed to the same pull request.",
      "",
      ...verdict.failures,
    ].join("\n").slice(0, 20_000),
    isNew: (locked) => locked.headSha === sha && ((locked.reviewState ?? {}) as { ciSha?: string }).ciSha !== sha,
    record: (locked) => ({ reviewState: { ...((locked.reviewState ?? {}) as Record<string, unknown>), ciSha: sha } }),
  });
  return { verdict, fix };
}
