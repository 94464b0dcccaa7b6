"use client";

import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { RunJson } from "@/app/(dashboard)/_data/wire";
import { isLiveRunStatus } from "@/lib/run-statuses";

const short = (sha: string) => sha.slice(0, 10);

/** Where the run's work is: its branch and commit (on GitHub when connected), and a kept worktree. */
export function RunWork({ run, canAdmin }: { run: RunJson; canAdmin: boolean }) {
  const discard = useApiMutation(() => api(`/api/runs/${run.id}/discard`, { method: "POST" }), { invalidate: [queryKeys.run(run.id)] });
  const sha = run.mergedSha ?? run.commitSha;
  const landed = run.mergeStatus === "merged";
  const kept = run.worktreePath && !isLiveRunStatus(run.status) && run.mergeStatus !== "pending" && !landed;
  return (
    <>
      <dl className="facts" aria-label="Work">
        <div><dt>Branch</dt><dd>{run.branch
          ? <>{run.links?.branch && !landed ? <a href={run.links.branch}><code>{run.branch}</code></a> : <code>{run.branch}</code>}{landed && <span className="muted small"> (merged, then deleted)</span>}</>
          : "—"}</dd></div>
        <div><dt>{landed ? "Merged commit" : "Commit"}</dt><dd>{sha
          ? <>{run.links?.commit ? <a href={run.links.commit}><code title={sha}>{short(sha)}</code></a> : <code title={sha}>{short(sha)}</code>}
            {run.mergeStatus && <> <span className={`badge ${run.mergeStatus}`}>{landed ? "merged" : `merge ${run.mergeStatus}`}</span></>}</>
          : "—"}</dd></div>
        {run.pullRequest && <div><dt>Pull request</dt><dd><a href={run.pullRequest.url}>#{run.pullRequest.number}</a> ({run.pullRequest.state})</dd></div>}
      </dl>
      {kept && (
        <div className="panel notice" role="region" aria-label="Kept worktree">
          <p>The work did not land{run.mergeStatus ? ` (merge ${run.mergeStatus})` : ""}. It is kept for you to look at:</p>
          <pre className="copyable">cd {run.worktreePath}</pre>
          <p className="small muted">Branch <code>{run.branch}</code> holds its commits. Discarding removes the folder only; the branch and the changes below stay.</p>
          {canAdmin
            ? <button type="button" className="secondary danger" disabled={discard.pending}
              onClick={() => { if (confirm(`Remove the worktree at ${run.worktreePath}? Uncommitted files in it are lost; the branch ${run.branch} keeps its commits.`)) discard.mutate(undefined); }}>Discard worktree</button>
            : <p className="small muted">An admin can discard it.</p>}
          {discard.error && <p className="error" role="alert">{discard.error.message}</p>}
        </div>
      )}
      {run.discardedAt && <p className="small muted">The worktree was discarded on {new Date(run.discardedAt).toLocaleString()}.</p>}
    </>
  );
}
