"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import { HeadLine, useRepositoryTest } from "@/app/(dashboard)/projects/_components/repository-test";

interface Props { id: string; name: string; repoKind: string; repoPath: string | null; baseBranch: string; readOnly: boolean }

/** The project itself: name, repository path and base branch; and archiving it. */
export function ProjectForm(p: Props) {
  const router = useRouter();
  const [v, setV] = useState({ name: p.name, repoPath: p.repoPath ?? "", baseBranch: p.baseBranch });
  const save = useApiMutation((d: typeof v) => api(`/api/projects/${p.id}`, { method: "PATCH", body: p.repoKind === "local" ? d : { name: d.name, baseBranch: d.baseBranch } }),
    { refresh: true, invalidate: [queryKeys.project(p.id), queryKeys.projects()] });
  const archive = useApiMutation(() => api(`/api/projects/${p.id}`, { method: "DELETE" }),
    { invalidate: [queryKeys.projects()], onSuccess: () => router.push("/") });
  const test = useRepositoryTest();
  // The last of save and Test speaks: one's errors replace the other's.
  const [last, setLast] = useState<"save" | "test">("save");
  const errorFor = last === "test" ? test.fieldError : save.fieldError;
  const err = (last === "test" ? test.error : save.error) ?? archive.error;
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form method="post" className="panel" aria-label="Project" onSubmit={(e) => { e.preventDefault(); setLast("save"); test.reset(); save.mutate(v); }}>
      <fieldset disabled={p.readOnly || save.pending || archive.pending}>
        <div className="grid-form">
          <Field label="Name" error={errorFor("name")}><input name="name" value={v.name} onChange={set("name")} /></Field>
          {p.repoKind === "local" && <Field label="Repository path" error={errorFor("repoPath")}><input name="repoPath" value={v.repoPath} onChange={set("repoPath")} /></Field>}
          <Field label="Base branch" error={errorFor("baseBranch")}><input name="baseBranch" value={v.baseBranch} onChange={set("baseBranch")} /></Field>
        </div>
        {last === "test" && test.data && <HeadLine head={test.data.head} />}
        {err && !err.field && <p className="error" role="alert">{err.message}</p>}
        <div className="row">
          <button type="submit">Save project</button>
          {p.repoKind === "local" && <button type="button" className="secondary" disabled={test.pending}
            onClick={() => { setLast("test"); save.reset(); test.mutate({ repoPath: v.repoPath, baseBranch: v.baseBranch }); }}>Test repository</button>}
          {save.isSuccess && <span role="status" className="ok">Saved</span>}
          <span className="spacer" />
          <button type="button" className="secondary" onClick={() => { if (confirm("Archive this project? Its loop stops; its history stays.")) archive.mutate(); }}>Archive project</button>
        </div>
      </fieldset>
    </form>
  );
}
