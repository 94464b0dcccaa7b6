"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ApiError } from "../../_ui/api";
import { Field } from "../../_ui/field";

type Profile = { id: string; name: string; adapter: string };

export function NewProjectForm({ profiles }: { profiles: Profile[] }) {
  const router = useRouter();
  const [v, setV] = useState({ name: "", repoKind: "local", repoPath: "", githubOwner: "", githubRepo: "", baseBranch: "main", executorProfileId: profiles[0]?.id ?? "" });
  const create = useMutation({
    mutationFn: () => api<{ project: { id: string } }>("/api/projects", {
      method: "POST",
      body: v.repoKind === "local"
        ? { name: v.name, repoKind: "local", repoPath: v.repoPath, baseBranch: v.baseBranch, executorProfileId: v.executorProfileId || undefined }
        : { name: v.name, repoKind: "github", githubOwner: v.githubOwner, githubRepo: v.githubRepo, baseBranch: v.baseBranch, executorProfileId: v.executorProfileId || undefined },
    }),
    onSuccess: ({ project }) => router.push(`/projects/${project.id}`),
  });
  const err = create.error instanceof ApiError ? create.error : null;
  const errorFor = (f: string) => (err?.field === f ? err.message : undefined);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form className="panel narrow" onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
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
      <button type="submit" disabled={create.isPending}>Create project</button>
    </form>
  );
}
