"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

type Profile = { id: string; name: string; adapter: string };

export function NewProjectForm({ profiles }: { profiles: Profile[] }) {
  const router = useRouter();
  const [v, setV] = useState({ name: "", repoKind: "local", repoPath: "", githubOwner: "", githubRepo: "", baseBranch: "main", executorProfileId: profiles[0]?.id ?? "" });
  const create = useApiMutation((d: typeof v) => api<{ project: { id: string } }>("/api/projects", {
    method: "POST",
    body: d.repoKind === "local"
      ? { name: d.name, repoKind: "local", repoPath: d.repoPath, baseBranch: d.baseBranch, executorProfileId: d.executorProfileId || undefined }
      : { name: d.name, repoKind: "github", githubOwner: d.githubOwner, githubRepo: d.githubRepo, baseBranch: d.baseBranch, executorProfileId: d.executorProfileId || undefined },
  }), { invalidate: [queryKeys.projects()], onSuccess: ({ project }) => router.push(`/projects/${project.id}`) });
  const { error: err, fieldError: errorFor } = create;
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form className="panel narrow" onSubmit={(e) => { e.preventDefault(); create.mutate(v); }}>
      <Field label="Name" error={errorFor("name")}><input name="name" value={v.name} onChange={set("name")} autoFocus /></Field>
      <Field label="Repository">
        <select name="repoKind" value={v.repoKind} onChange={set("repoKind")}>
          <option value="local">Local git repository (path on the worker machines)</option>
          <option value="github">GitHub repository</option>
        </select>
      </Field>
      {v.repoKind === "local" ? (
        <Field label="Repository path" error={errorFor("repoPath")} hint="absolute path, e.g. /srv/repos/app">
          <input name="repoPath" value={v.repoPath} onChange={set("repoPath")} />
        </Field>
      ) : (
        <div className="row">
          <Field label="Owner" error={errorFor("githubOwner")}><input name="githubOwner" value={v.githubOwner} onChange={set("githubOwner")} /></Field>
          <Field label="Repository" error={errorFor("githubRepo")}><input name="githubRepo" value={v.githubRepo} onChange={set("githubRepo")} /></Field>
        </div>
      )}
      <Field label="Base branch" error={errorFor("baseBranch")}><input name="baseBranch" value={v.baseBranch} onChange={set("baseBranch")} /></Field>
      <Field label="Agent profile" error={errorFor("executorProfileId")} hint={profiles.length ? undefined : "no agent profiles yet: the project can be created and configured later"}>
        <select name="executorProfileId" value={v.executorProfileId} onChange={set("executorProfileId")}>
          <option value="">— none —</option>
          {profiles.map((p) => <option key={p.id} value={p.id}>{p.name} ({p.adapter})</option>)}
        </select>
      </Field>
      {err && !err.field && <p className="error" role="alert">{err.message}</p>}
      <button type="submit" disabled={create.pending}>Create project</button>
    </form>
  );
}
