"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

/** Opens a free-standing thread with a project's lead agent, with the person's first message. */
export function NewThread({ projects }: { projects: { id: string; name: string }[] }) {
  const router = useRouter();
  const [v, setV] = useState({ projectId: projects[0].id, title: "", text: "" });
  const create = useApiMutation(
    (d: typeof v) => api<{ thread: { id: string } }>("/api/threads", { method: "POST", body: { projectId: d.projectId, title: d.title, ...(d.text.trim() ? { text: d.text } : {}) } }),
    { invalidate: [queryKeys.threads()], onSuccess: (r) => router.push(`/threads/${r.thread.id}`) },
  );
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form method="post" className="panel" aria-label="New thread" onSubmit={(e) => { e.preventDefault(); create.mutate(v); }}>
      <div className="form-row">
        <Field label="Project" error={create.fieldError("projectId")}>
          <select value={v.projectId} onChange={set("projectId")}>{projects.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}</select>
        </Field>
        <Field label="Subject" error={create.fieldError("title")}><input value={v.title} onChange={set("title")} placeholder="Why did run 12 fail?" /></Field>
      </div>
      <Field label="Message" error={create.fieldError("text")}><textarea rows={3} value={v.text} onChange={set("text")} /></Field>
      {create.error && !create.error.field && <p className="error" role="alert">{create.error.message}</p>}
      <button type="submit" disabled={create.pending}>Start thread</button>
    </form>
  );
}
