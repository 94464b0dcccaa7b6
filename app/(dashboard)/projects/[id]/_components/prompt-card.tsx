"use client";

import { ConfirmButton } from "@/app/(dashboard)/_ui/confirm-button";
import Link from "next/link";
import { api } from "@/app/(dashboard)/_ui/api";
import type { PromptRow } from "@/app/(dashboard)/_data/wire";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import { useNow } from "@/app/(dashboard)/_ui/time";
import { attemptsText } from "@/lib/run-statuses";
import { PromptSource } from "@/app/(dashboard)/_ui/prompt-source";

// The reason a prompt failed, in one line: a failure log starts with what went wrong.
const firstLine = (log: string) => {
  const line = log.split("\n").map((l) => l.trim()).find(Boolean) ?? "";
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
};

export function PromptCard({ projectId, prompt: p, blockedBy, canOperate }: { projectId: string; prompt: PromptRow; blockedBy: number[]; canOperate: boolean }) {
  // Ticks each second only while a retry countdown shows.
  const now = useNow(p.retryAt ? 1000 : 60_000);
  const action = useApiMutation((body: { action: "cancel" | "retry" }) => api(`/api/prompts/${p.id}/actions`, { method: "POST", body }), { invalidate: [queryKeys.project(projectId)] });
  const edit = useApiMutation((priority: number) => api(`/api/prompts/${p.id}`, { method: "PATCH", body: { priority } }), { invalidate: [queryKeys.project(projectId)] });
  const retryIn = p.retryAt ? new Date(p.retryAt).getTime() - now : 0;
  const editable = p.status === "pending" || p.status === "failed" || p.status === "cancelled";
  return (
    <article className="card" data-testid="prompt-card" data-number={p.number} data-status={p.status}>
      <div className="row spread">
        <Link href={`/prompts/${p.id}`} className="card-title">#{p.number} {p.title}</Link>
        <span className={`badge prio-${p.priority}`} title="priority">P{p.priority}</span>
      </div>
      <PromptSource sourceUrl={p.sourceUrl} agentName={p.pinnedAgent?.name ?? null} />
      {p.dependencies.length > 0 && (
        <p className="small muted">
          after {p.dependencies.map((d) => `#${d}`).join(", ")}
          {blockedBy.length > 0 && p.status === "pending" && <> · <span className="warn" data-testid="blocked-by">blocked by {blockedBy.map((d) => `#${d}`).join(", ")}</span></>}
        </p>
      )}
      {p.approval === "pending" && <p className="small warn">waiting for approval</p>}
      {p.attempts > 0 && <p className="small muted" data-testid="attempts">{attemptsText(p.attempts, p.maxAttempts)}{retryIn > 0 && p.status === "pending" ? ` · retry in ${Math.ceil(retryIn / 1000)}s` : ""}</p>}
      {p.failureLog && (p.status === "failed" || p.status === "pending") && (
        <p className="small error failure-reason" data-testid="failure-reason" title={p.failureLog}>{p.status === "failed" ? "failed: " : "last try: "}{firstLine(p.failureLog)}</p>
      )}
      {canOperate && (
        <div className="row actions">
          {editable && (
            <>
              <button type="button" className="icon" aria-label={`Raise priority of #${p.number}`} disabled={p.priority <= 1 || edit.isPending} onClick={() => edit.mutate(p.priority - 1)}>↑</button>
              <button type="button" className="icon" aria-label={`Lower priority of #${p.number}`} disabled={p.priority >= 4 || edit.isPending} onClick={() => edit.mutate(p.priority + 1)}>↓</button>
            </>
          )}
          {(p.status === "pending" || p.status === "in_progress") && (
            <ConfirmButton label="Cancel" className="link" question="Cancel this prompt?" yes="Yes, cancel" onConfirm={() => action.mutate({ action: "cancel" })} disabled={action.isPending} />
          )}
          {(p.status === "failed" || p.status === "cancelled") && (
            <button type="button" className="link" onClick={() => action.mutate({ action: "retry" })} disabled={action.isPending}>Retry</button>
          )}
        </div>
      )}
      {(action.error || edit.error) && <p className="error small" role="alert">{(action.error ?? edit.error)!.message}</p>}
    </article>
  );
}
