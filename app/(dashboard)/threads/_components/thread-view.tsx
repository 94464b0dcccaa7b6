"use client";

import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import { useThread } from "@/app/(dashboard)/_data/use-thread";
import type { TurnJson } from "@/app/(dashboard)/_data/wire";
import { Receipt } from "./receipt";

function who(t: Pick<TurnJson, "actor" | "actorId">): string {
  if (t.actor === "person") return "Person";
  if (t.actor === "lead") return "Lead agent";
  if (t.actor === "worker") return "Worker run";
  if (t.actor === "monitor") return `Monitor${t.actorId ? ` (${t.actorId})` : ""}`;
  return "System";
}

function TurnItem({ turn, pending }: { turn: Pick<TurnJson, "actor" | "actorId" | "action" | "content" | "status" | "target"> & { seq: number | null }; pending?: boolean }) {
  return (
    <li className={`turn ${turn.actor}${pending ? " pending" : ""}`} data-testid="turn">
      <div className="turn-head small">
        <strong>{who(turn)}</strong>
        {turn.action && turn.action !== "message" && <span className="badge">{turn.action}</span>}
        {turn.target && <span className="muted">→ {turn.target}</span>}
      </div>
      <div className="turn-text">{turn.content}</div>
      <div className="turn-foot small muted">{turn.seq !== null && `#${turn.seq} `}<Receipt seq={turn.seq} status={turn.status} /></div>
    </li>
  );
}

/**
 * A conversation with the project's lead agent. Receipts follow the live stream (each
 * `message_status` event re-reads the thread); a person's turn shows at once with ✓, before the
 * server has answered.
 */
export function ThreadView({ threadId, canWrite }: { threadId: string; canWrite: boolean }) {
  const { data: thread, error } = useThread(threadId);
  const [text, setText] = useState("");
  const send = useApiMutation((t: string) => api(`/api/threads/${threadId}/turns`, { method: "POST", body: { text: t } }), {
    invalidate: [queryKeys.thread(threadId)], onSuccess: () => setText(""),
  });
  if (error) return <p className="error" role="alert">{error.message}</p>;
  if (!thread) return <p className="muted">Loading the conversation…</p>;
  return (
    <section className="conversation" aria-label="Conversation">
      {thread.turns.length === 0 && !send.isPending && <p className="muted">No messages yet. Ask the lead agent about this work.</p>}
      <ol className="turns">
        {thread.turns.map((t) => <TurnItem key={t.seq} turn={t} />)}
        {send.isPending && <TurnItem pending turn={{ seq: null, actor: "person", actorId: null, action: "message", content: send.variables.trim(), status: "sent", target: null }} />}
      </ol>
      {thread.waitingForUser && !thread.closedAt && <p className="notice" data-testid="waiting">The lead agent is waiting for your answer.</p>}
      {thread.closedAt ? <p className="muted" data-testid="closed">This conversation is closed.</p> : canWrite && (
        <form method="post" className="reply" onSubmit={(e) => { e.preventDefault(); send.mutate(text); }}>
          <Field label="Message" error={send.fieldError("text")}>
            <textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} placeholder="Write to the lead agent" />
          </Field>
          {send.error && !send.error.field && <p className="error" role="alert">{send.error.message}</p>}
          <button type="submit" disabled={send.isPending}>Send</button>
        </form>
      )}
    </section>
  );
}
