"use client";

import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

interface Props { id: string; title: string; body: string; priority: number; dependencies: number[] }

/** Edits a prompt that is not running or done (the text a running agent got stays as it was). */
export function EditPrompt(p: Props) {
  const [open, setOpen] = useState(false);
  const [v, setV] = useState({ title: p.title, body: p.body, priority: String(p.priority), dependencies: p.dependencies.join(", ") });
  const save = useApiMutation((d: typeof v) => api(`/api/prompts/${p.id}`, {
    method: "PATCH",
    body: { title: d.title, body: d.body, priority: Number(d.priority), dependencies: d.dependencies.split(/[\s,]+/).filter(Boolean).map((s) => Number(s.replace(/^[P#]/i, ""))) },
  }), { refresh: true, invalidate: [queryKeys.prompt(p.id)], onSuccess: () => setOpen(false) });
  const { error: err, fieldError: errorFor } = save;
  if (!open) return <button type="button" className="secondary" onClick={() => setOpen(true)}>Edit prompt</button>;
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form method="post" className="panel" onSubmit={(e) => { e.preventDefault(); save.mutate(v); }}>
      <Field label="Title" error={errorFor("title")}><input value={v.title} onChange={set("title")} /></Field>
      <Field label="Prompt (Markdown)" error={errorFor("body")}><textarea rows={10} value={v.body} onChange={set("body")} /></Field>
      <div className="row">
        <Field label="Priority" error={errorFor("priority")}>
          <select value={v.priority} onChange={set("priority")}>{[1, 2, 3, 4].map((n) => <option key={n} value={n}>P{n}</option>)}</select>
        </Field>
        <Field label="Depends on" error={errorFor("dependencies")}><input value={v.dependencies} onChange={set("dependencies")} /></Field>
      </div>
      {err && !err.field && <p className="error" role="alert">{err.message}</p>}
      <div className="row">
        <button type="submit" disabled={save.pending}>Save</button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>Close</button>
      </div>
    </form>
  );
}
