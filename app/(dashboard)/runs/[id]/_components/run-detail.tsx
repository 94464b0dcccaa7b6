"use client";

import { ConfirmButton } from "@/app/(dashboard)/_ui/confirm-button";
import Link from "next/link";
import { api } from "@/app/(dashboard)/_ui/api";
import { formatDuration, useNow } from "@/app/(dashboard)/_ui/time";
import { useRunLog } from "@/app/(dashboard)/_live/use-run-log";
import { LogView } from "./log-view";
import { repeatedCallOf } from "@/lib/spend/loop-detector";
import { useRun } from "@/app/(dashboard)/_data/use-run";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import { isLiveRunStatus, runBadge } from "@/lib/run-statuses";
import { EgressFacts } from "./egress-facts";
import { RunDiff } from "./run-diff";
import { RunWork } from "./run-work";
import { SpendFacts } from "./spend-facts";

export function RunDetail({ runId, canOperate, canAdmin }: { runId: string; canOperate: boolean; canAdmin: boolean }) {
  const { data } = useRun(runId);
  const log = useRunLog(runId);
  const now = useNow();
  const cancel = useApiMutation(() => api(`/api/runs/${runId}/cancel`, { method: "POST" }), { invalidate: [queryKeys.run(runId)] });
  if (!data) return <div className="panel skeleton" aria-busy="true" />;
  const live = isLiveRunStatus(data.status);
  const started = data.startedAt ? new Date(data.startedAt).getTime() : null;
  const elapsed = started ? (data.finishedAt ? new Date(data.finishedAt).getTime() : now) - started : null;
  // A finished run's changes come before its log: they are what a reviewer looks for first.
  const changes = data.diff && data.diff.files.length > 0 ? <RunDiff diff={data.diff} /> : null;
  return (
    <div className="run">
      <p className="muted"><Link href={`/projects/${data.project.id}`}>{data.project.name}</Link>
        {data.prompt && <> · <Link href={`/prompts/${data.prompt.id}`}>#{data.prompt.number} {data.prompt.title}</Link></>}</p>
      <div className="row spread">
        <h1>{data.kind} run <span className={`badge ${runBadge(data.status, data.mergeStatus).tone}`} data-testid="run-status">{runBadge(data.status, data.mergeStatus).label}</span></h1>
        {canOperate && live && <ConfirmButton label="Cancel run" question="Cancel this run? Its agent is stopped." yes="Yes, cancel" onConfirm={() => cancel.mutate()} disabled={cancel.isPending} />}
      </div>
      <dl className="facts">
        <div><dt>Agent</dt><dd>{data.adapter}{data.model ? ` · ${data.model}` : ""} · attempt {data.attempt}</dd></div>
        <div><dt>Session</dt><dd data-testid="run-session-id">{data.sessionId ? <code>{data.sessionId}</code> : <span className="muted">not named by the CLI</span>}</dd></div>
        <div><dt>Time</dt><dd>{elapsed !== null ? formatDuration(elapsed) : "not started"}</dd></div>
        <div><dt>Exit</dt><dd>{data.exitCode ?? data.signal ?? "—"}</dd></div>
        <SpendFacts run={data} />
        <EgressFacts egress={data.egress} />
      </dl>
      <RunWork run={data} canAdmin={canAdmin} />
      {data.error && <p className="error">{data.error}</p>}
      {cancel.error && <p className="error" role="alert">{cancel.error.message}</p>}
      {!live && changes}
      <div className="row spread">
        <h2>Log</h2>
        <span className="small muted" data-testid="log-status">{log.status === "ended" ? "complete" : log.status}</span>
      </div>
      <LogView adapter={data.adapter} lines={log.lines} follow={live} repeated={repeatedCallOf(data.error)} />
      {data.logTruncated && <p className="small warn">The stored log was capped; the marker shows where output was cut.</p>}
      {live && changes}
    </div>
  );
}
