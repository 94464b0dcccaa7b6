"use client";

import { useState } from "react";
import type { TeamRole } from "@/lib/auth/access";
import { Field } from "@/app/(dashboard)/_ui/field";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

const empty = { kind: "api", name: "", role: "operator", projectId: "", expiresInDays: "" };
const rank: Record<TeamRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

export function TokenForm({ myRole, projects }: { myRole: TeamRole; projects: { id: string; name: string }[] }) {
  const [secret, setSecret] = useState<string | null>(null);
  // Controlled: a refused token must keep its kind, role and project scope, never widen to all projects.
  const [draft, setDraft] = useState(empty);
  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const create = useApiMutation((d: typeof empty) => api<{ token: string }>("/api/tokens", {
    method: "POST",
    // A runner token has no role: it opens only the runner API.
    body: { ...d, role: d.kind === "api" ? d.role : undefined },
  }), { refresh: true, onSuccess: (created) => { setSecret(created.token); setDraft(empty); } });
  const { error, pending, fieldError } = create;
  return (
    <form method="post" onSubmit={(e) => { e.preventDefault(); create.mutate(draft); }} className="stack" noValidate aria-label="New token">
      <div className="form-row">
        <Field label="Kind" hint={draft.kind === "runner" ? "Opens only the runner API: for agents on another machine" : "For CI and scripts: the dashboard's API"} error={fieldError("kind")}>
          <select name="kind" value={draft.kind} onChange={set("kind")}>
            <option value="api">API token</option>
            <option value="runner">Runner token</option>
          </select>
        </Field>
        <Field label="Name" hint="What uses it: a runner, CI, a script" error={fieldError("name")}>
          <input name="name" required maxLength={100} value={draft.name} onChange={set("name")} />
        </Field>
        {draft.kind === "api" && (
          <Field label="Role" error={fieldError("role")}>
            <select name="role" value={draft.role} onChange={set("role")}>
              {(["viewer", "operator", "admin", "owner"] as TeamRole[]).filter((r) => rank[r] <= rank[myRole]).map((r) => <option key={r}>{r}</option>)}
            </select>
          </Field>
        )}
        <Field label="Project" error={fieldError("projectId")}>
          <select name="projectId" value={draft.projectId} onChange={set("projectId")}>
            <option value="">All projects</option>
            {projects.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
          </select>
        </Field>
        <Field label="Expires after (days)" hint="Empty: never" error={fieldError("expiresInDays")}>
          <input name="expiresInDays" type="number" min={1} max={365} value={draft.expiresInDays} onChange={set("expiresInDays")} />
        </Field>
      </div>
      {error && !error.field && <p className="error" role="alert">{error.message}</p>}
      <button type="submit" disabled={pending}>Create token</button>
      {secret && (
        <div className="secret" role="status">
          <p>Copy this token now: it is stored hashed and will not be shown again. Send it as <code>Authorization: Bearer …</code>.</p>
          <code data-testid="new-token">{secret}</code>{" "}
          <button type="button" className="secondary small" onClick={() => navigator.clipboard?.writeText(secret)}>Copy</button>
        </div>
      )}
    </form>
  );
}
