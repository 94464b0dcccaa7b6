"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ApiError } from "../../../_ui/api";
import { Field } from "../../../_ui/field";

interface Props { id: string; name: string; repoKind: string; repoPath: string | null; baseBranch: string; readOnly: boolean }

/** The project itself: name, repository path and base branch; and archiving it. */
export function ProjectForm(p: Props) {
  const router = useRouter();
  const [v, setV] = useState({ name: p.name, repoPath: p.repoPath ?? "", baseBranch: p.baseBranch });
  const save = useMutation({
    mutationFn: () => api(`/api/projects/${p.id}`, { method: "PATCH", body: p.repoKind === "local" ? v : { name: v.name, baseBranch: v.baseBranch } }),
    onSuccess: () => router.refresh(),
  });
  const archive = useMutation({ mutationFn: () => api(`/api/projects/${p.id}`, { method: "DELETE" }), onSuccess: () => router.push("/") });
  const err = save.error instanceof ApiError ? save.error : null;
  const errorFor = (f: string) => (err?.field === f ? err.message : undefined);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form className="panel" aria-label="Project" onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
      <fieldset disabled={p.readOnly || save.isPending}>
        <div className="grid-form">
          <Field label="Name" error={errorFor("name")}><input name="name" value={v.name} onChange={set("name")} /></Field>
          {p.repoKind === "local" && <Field label="Repository path" error={errorFor("repoPath")}><input name="repoPath" value={v.repoPath} onChange={set("repoPath")} /></Field>}
          <Field label="Base branch" error={errorFor("baseBranch")}><input name="baseBranch" value={v.baseBranch} onChange={set("baseBranch")} /></Field>
        </div>
        {err && !err.field && <p className="error" role="alert">{err.message}</p>}
        <div className="row">
          <button type="submit">Save project</button>
          {save.isSuccess && <span role="status" className="ok">Saved</span>}
          <span className="spacer" />
          <button type="button" className="secondary" onClick={() => { if (confirm("Archive this project? Its loop stops; its history stays.")) archive.mutate(); }}>Archive project</button>
        </div>
      </fieldset>
    </form>
  );
}
