"use client";

import Link from "next/link";
import { useQuery, useQueryClient, useMutation } from "@tanstack/react-query";
import { api } from "../../../_ui/api";
import { formatDuration, useNow } from "../../../_ui/time";
import { useRunLog } from "../../../_live/use-run-log";
import { LogView } from "./log-view";

interface RunJson {
  id: string; kind: string; status: string; attempt: number; adapter: string; model: string | null;
  queuedAt: string; startedAt: string | null; finishedAt: string | null; exitCode: number | null; signal: string | null;
  branch: string | null; commitSha: string | null; baseSha: string | null; worktreePath: string | null; mergeStatus: string | null;
  error: string | null; costUsd: number | null; inputTokens: number | null; outputTokens: number | null; logTruncated: boolean;
  prompt: { id: string; number: number; title: string } | null;
  pullRequest: { url: string; number: number; state: string } | null;
  project: { id: string; name: string };
  diff: { files: number; insertions: number; deletions: number; changed: Array<{ path: string; insertions: number; deletions: number }> } | null;
}

const LIVE = new Set(["queued", "starting", "running"]);

export function RunDetail({ runId, canOperate }: { runId: string; canOperate: boolean }) {
  const qc = useQueryClient();
  const { data } = useQuery({ queryKey: ["run", runId], queryFn: () => api<{ run: RunJson }>(`/api/runs/${runId}`).then((r) => r.run) });
  const log = useRunLog(runId);
  const now = useNow();
  const cancel = useMutation({
    mutationFn: () => api(`/api/runs/${runId}/cancel`, { method: "POST" }),
    onSettled: () => qc.invalidateQueries({ queryKey: ["run", runId] }),
  });
  if (!data) return <div className="panel skeleton" aria-busy="true" />;
  const live = LIVE.has(data.status);
  const started = data.startedAt ? new Date(data.startedAt).getTime() : null;
  const elapsed = started ? (data.finishedAt ? new Date(data.finishedAt).getTime() : now) - started : null;
  return (
    <div className="run">
      <p className="muted"><Link href={`/projects/${data.project.id}`}>{data.project.name}</Link>
        {data.prompt && <> · <Link href={`/prompts/${data.prompt.id}`}>P{data.prompt.number} {data.prompt.title}</Link></>}</p>
      <div className="row spread">
        <h1>{data.kind} run <span className={`badge ${data.status}`} data-testid="run-status">{data.status}</span></h1>
        {canOperate && live && <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending}>Cancel run</button>}
      </div>
      <dl className="facts">
        <div><dt>Agent</dt><dd>{data.adapter}{data.model ? ` · ${data.model}` : ""} · attempt {data.attempt}</dd></div>
        <div><dt>Time</dt><dd>{elapsed !== null ? formatDuration(elapsed) : "not started"}</dd></div>
        <div><dt>Exit</dt><dd>{data.exitCode ?? data.signal ?? "—"}</dd></div>
        <div><dt>Branch</dt><dd><code>{data.branch ?? "—"}</code></dd></div>
        <div><dt>Commit</dt><dd><code>{data.commitSha?.slice(0, 10) ?? "—"}</code>{data.mergeStatus && <> · merge {data.mergeStatus}</>}</dd></div>
        <div><dt>Cost</dt><dd>{data.costUsd !== null ? `$${data.costUsd.toFixed(4)}` : "—"}{data.inputTokens !== null && <> · {data.inputTokens}/{data.outputTokens} tokens</>}</dd></div>
        {data.pullRequest && <div><dt>Pull request</dt><dd><a href={data.pullRequest.url}>#{data.pullRequest.number}</a> ({data.pullRequest.state})</dd></div>}
        {data.diff && <div><dt>Diff</dt><dd>{data.diff.files} files, +{data.diff.insertions} −{data.diff.deletions}</dd></div>}
      </dl>
      {data.error && <p className="error">{data.error}</p>}
      {cancel.error && <p className="error" role="alert">{cancel.error.message}</p>}
      <div className="row spread">
        <h2>Log</h2>
        <span className="small muted" data-testid="log-status">{log.status === "ended" ? "complete" : log.status}</span>
      </div>
      <LogView adapter={data.adapter} lines={log.lines} follow={live} />
      {data.logTruncated && <p className="small warn">The stored log was capped; the marker shows where output was cut.</p>}
    </div>
  );
}
