"use client";

import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

interface Draft { title: string; body: string; priority: string; dependencies: string }
const empty: Draft = { title: "", body: "", priority: "3", dependencies: "" };

export function NewPromptForm({ projectId, numbers }: { projectId: string; numbers: number[] }) {
  const [draft, setDraft] = useState<Draft>(empty);
  const [open, setOpen] = useState(false);
  const create = useApiMutation((d: Draft) => api(`/api/projects/${projectId}/prompts`, {
    method: "POST",
    body: {
      title: d.title, body: d.body, priority: Number(d.priority),
      dependencies: d.dependencies.split(/[\s,]+/).filter(Boolean).map((s) => Number(s.replace(/^P/i, ""))),
    },
  }), { invalidate: [queryKeys.project(projectId)] });
  const { error: err, fieldError } = create;
  if (!open) return <button type="button" onClick={() => setOpen(true)}>New prompt</button>;
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  return (
    <form method="post" className="panel new-prompt" onSubmit={(e) => { e.preventDefault(); create.mutate(draft, { onSuccess: () => { setDraft(empty); setOpen(false); } }); }}>
      <Field label="Title" error={fieldError("title")}><input name="title" value={draft.title} onChange={set("title")} autoFocus /></Field>
      <Field label="Prompt (Markdown)" error={fieldError("body")}><textarea name="body" rows={5} value={draft.body} onChange={set("body")} /></Field>
      <div className="row">
        <Field label="Priority" error={fieldError("priority")}>
          <select name="priority" value={draft.priority} onChange={set("priority")}>
            {[1, 2, 3, 4].map((n) => <option key={n} value={n}>P{n}</option>)}
          </select>
        </Field>
        <Field label="Depends on" error={fieldError("dependencies")} hint={numbers.length ? `e.g. ${numbers.slice(0, 2).join(", ")}` : "prompt numbers"}>
          <input name="dependencies" value={draft.dependencies} onChange={set("dependencies")} placeholder="1, 2" />
        </Field>
      </div>
      {err && !err.field && <p className="error" role="alert">{err.message}</p>}
      <div className="row">
        <button type="submit" disabled={create.isPending}>Add prompt</button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>Close</button>
      </div>
    </form>
  );
}
