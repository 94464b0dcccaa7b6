"use client";

import { useRef } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

/** Bulk import of prompt files (`NN-slug.md` with YAML frontmatter). */
export function ImportPrompts({ projectId }: { projectId: string }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useApiMutation(async (files: File[]) => {
    const payload = await Promise.all(files.map(async (f) => ({ name: f.name, text: await f.text() })));
    return api<{ imported: number }>(`/api/projects/${projectId}/prompts/import`, { method: "POST", body: { files: payload } });
  }, { invalidate: [queryKeys.project(projectId)] });
  return (
    <div className="row">
      <input ref={input} type="file" accept=".md,text/markdown" multiple hidden aria-label="Prompt files"
        onChange={(e) => { const files = [...(e.target.files ?? [])]; if (files.length) upload.mutate(files); e.target.value = ""; }} />
      <button type="button" className="secondary" onClick={() => input.current?.click()} disabled={upload.isPending}>Import prompt files</button>
      {upload.data && <span className="muted small" role="status">{upload.data.imported} imported</span>}
      {upload.error && <span className="error small" role="alert">{upload.error.message}</span>}
    </div>
  );
}
