"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import { HeadLine, useRepositoryTest } from "@/app/(dashboard)/projects/_components/repository-test";

type Profile = { id: string; name: string; adapter: string };
type Values = { name: string; repoKind: string; repoPath: string; githubOwner: string; githubRepo: string; baseBranch: string; executorProfileId: string };

export function NewProjectForm({ profiles, defaultProfileId }: { profiles: Profile[]; defaultProfileId: string | null }) {
  const router = useRouter();
  const [v, setV] = useState<Values>({ name: "", repoKind: "local", repoPath: "", githubOwner: "", githubRepo: "", baseBranch: "main", executorProfileId: defaultProfileId ?? profiles[0]?.id ?? "" });
  const create = useApiMutation((d: Values & { initRepository?: boolean }) => api<{ project: { id: string } }>("/api/projects", {
    method: "POST",
    body: d.repoKind === "local"
      ? { name: d.name, repoKind: "local", repoPath: d.repoPath, baseBranch: d.baseBranch, executorProfileId: d.executorProfileId || undefined, ...(d.initRepository ? { initRepository: true } : {}) }
      : { name: d.name, repoKind: "github", githubOwner: d.githubOwner, githubRepo: d.githubRepo, baseBranch: d.baseBranch, executorProfileId: d.executorProfileId || undefined },
  }), { invalidate: [queryKeys.projects()], onSuccess: ({ project }) => router.push(`/projects/${project.id}`) });
  const test = useRepositoryTest();
  // The last of the two calls speaks: a Test after a failed create replaces its errors.
  const [last, setLast] = useState<"create" | "test">("create");
  const shown = last === "test" ? test : create;
  const err = shown.error;
  const errorFor = shown.fieldError;
  const set = (k: keyof Values) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const submit = (initRepository?: boolean) => { setLast("create"); test.reset(); create.mutate({ ...v, initRepository }); };
  const runTest = () => { setLast("test"); create.reset(); test.mutate({ repoPath: v.repoPath, baseBranch: v.baseBranch }); };
  return (
    <form method="post" className="panel narrow" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <Field label="Name" error={errorFor("name")}><input name="name" value={v.name} onChange={set("name")} autoFocus /></Field>
      <Field label="Repository">
        <select name="repoKind" value={v.repoKind} onChange={set("repoKind")}>
          <option value="local">Local git repository (path on the worker machines)</option>
          <option value="github">GitHub repository</option>
        </select>
      </Field>
      {v.repoKind === "local" ? (
        <Field label="Repository path" error={errorFor("repoPath")} hint="absolute path of the repository's folder, e.g. /srv/repos/app">
          <input name="repoPath" value={v.repoPath} onChange={set("repoPath")} />
        </Field>
      ) : (
        <div className="row">
          <Field label="Owner" error={errorFor("githubOwner")}><input name="githubOwner" value={v.githubOwner} onChange={set("githubOwner")} /></Field>
          <Field label="Repository" error={errorFor("githubRepo")}><input name="githubRepo" value={v.githubRepo} onChange={set("githubRepo")} /></Field>
        </div>
      )}
      <Field label="Base branch" error={errorFor("baseBranch")} hint={v.repoKind === "github" ? "checked on GitHub once the project is connected (project settings)" : undefined}>
        <input name="baseBranch" value={v.baseBranch} onChange={set("baseBranch")} />
      </Field>
      {err?.code === "empty_folder" && (
        <div className="panel notice" role="region" aria-label="Empty folder">
          <p>This folder is empty. Ringmaster can make it a new git repository with a first commit on <code>{v.baseBranch}</code>.</p>
          <button type="button" className="secondary" onClick={() => submit(true)} disabled={create.pending}>Create a new repository here</button>
        </div>
      )}
      {last === "test" && test.data && <HeadLine head={test.data.head} />}
      <Field label="Agent profile" error={errorFor("executorProfileId")} hint={profiles.length ? undefined : "no agent profiles yet: the project can be created and configured later"}>
        <select name="executorProfileId" value={v.executorProfileId} onChange={set("executorProfileId")}>
          <option value="">— none —</option>
          {profiles.map((p) => <option key={p.id} value={p.id}>{p.name} ({p.adapter})</option>)}
        </select>
      </Field>
      {err && !err.field && <p className="error" role="alert">{err.message}</p>}
      <div className="row">
        <button type="submit" disabled={create.pending}>Create project</button>
        {v.repoKind === "local" && <button type="button" className="secondary" onClick={runTest} disabled={test.pending || !v.repoPath}>Test repository</button>}
      </div>
    </form>
  );
}
