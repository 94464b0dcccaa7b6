"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useCampaigns } from "@/app/(dashboard)/_data/use-campaign";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { CampaignView } from "@/app/(dashboard)/_data/wire";

export function CampaignList({ projectId, canOperate }: { projectId: string; canOperate: boolean }) {
  const { data } = useCampaigns(projectId);
  const router = useRouter();
  const create = useApiMutation((form: FormData) => api<{ campaign: CampaignView["campaign"] }>(`/api/projects/${projectId}/campaigns`, {
    method: "POST",
    body: { goal: String(form.get("goal") ?? ""), ...(form.get("title") ? { title: String(form.get("title")) } : {}) },
  }), { invalidate: [queryKeys.campaigns(projectId)], onSuccess: ({ campaign }) => router.push(`/campaigns/${campaign.id}`) });
  return (
    <>
      {canOperate && (
        <form className="panel" method="post" onSubmit={(e) => { e.preventDefault(); create.mutate(new FormData(e.currentTarget)); }}>
          <Field label="Title" error={create.fieldError("title")} hint="optional: otherwise the first line below"><input name="title" /></Field>
          <Field label="Goal" error={create.fieldError("goal")}><textarea name="goal" rows={5} placeholder="What should be true when the campaign is done (Markdown)" /></Field>
          {create.error && !create.error.field && Object.keys(create.error.fields).length === 0 && <p className="error" role="alert">{create.error.message}</p>}
          <button type="submit" disabled={create.pending}>Start campaign</button>
        </form>
      )}
      <ul className="campaign-list">
        {(data ?? []).map((c) => (
          <li key={c.id}>
            <Link href={`/campaigns/${c.id}`}>{c.title}</Link> <span className={`badge ${c.phase}`}>{c.phase}{c.paused ? " (paused)" : ""}</span>{" "}
            <small className="muted">{c.tasksCompleted} of {c.tasksTotal} tasks done</small>
          </li>
        ))}
        {data?.length === 0 && <li className="muted">No campaigns yet.</li>}
      </ul>
    </>
  );
}
