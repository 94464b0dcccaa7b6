"use client";

import { useState } from "react";
import type { ApprovalItem } from "@/lib/approvals/list";
import { Ago } from "@/app/(dashboard)/_ui/time";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { KIND_LABELS } from "./kind-labels";
import Link from "next/link";


export function ApprovalCard({ item, canDecide }: { item: ApprovalItem; canDecide: boolean }) {
  const [comment, setComment] = useState("");
  const decide = useApiMutation((body: { decision: "approve" | "reject"; comment: string }) =>
    api(`/api/approvals/${item.id}`, { method: "POST", body }), { refresh: true });
  const { error, pending, fieldError } = decide;
  const id = `comment-${item.id}`;
  return (
    <article className="panel approval" data-testid="approval" aria-labelledby={`${id}-h`}>
      <div className="approval-head">
        <span className="badge">{KIND_LABELS[item.kind]}</span>
        <Link className="muted small" href={`/projects/${item.project.id}`}>{item.project.name}</Link>
      </div>
      {item.prompt && (
        <>
          <h3 id={`${id}-h`}><Link href={`/prompts/${item.prompt.id}`}>#{item.prompt.number} {item.prompt.title}</Link></h3>
          {item.prompt.body && <pre className="excerpt">{item.prompt.body}</pre>}
        </>
      )}
      {item.pullRequest && (
        <h3 id={`${id}-h`}>
          <a href={item.pullRequest.url} rel="noreferrer" target="_blank">PR #{item.pullRequest.number}</a>{" "}
          <span className="muted small">{item.pullRequest.headBranch} · {item.pullRequest.fixCycles} fix cycles</span>
        </h3>
      )}
      <p className="muted small">Asked by {item.requestedBy} · <Ago at={item.createdAt} /></p>
      {item.status === "pending" ? (
        canDecide ? (
          <div className="stack">
            <label htmlFor={id} className={fieldError("comment") ? "field invalid" : "field"}>
              Comment (optional)
              <textarea id={id} rows={2} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
              {fieldError("comment") && <small className="error">{fieldError("comment")}</small>}
            </label>
            <div className="row">
              <button type="button" disabled={pending} onClick={() => decide.mutate({ decision: "approve", comment })}>Approve</button>
              <button type="button" className="secondary danger" disabled={pending} onClick={() => decide.mutate({ decision: "reject", comment })}>Reject</button>
            </div>
            {error && !error.field && <p className="error" role="alert">{error.message}</p>}
          </div>
        ) : <p className="muted small">Operators, admins and owners decide; you can read.</p>
      ) : (
        <p className="small">
          <span className={`badge ${item.status}`}>{item.status}</span>{item.decidedBy && <> by {item.decidedBy}</>}
          {item.comment && <> — “{item.comment}”</>}
        </p>
      )}
    </article>
  );
}
