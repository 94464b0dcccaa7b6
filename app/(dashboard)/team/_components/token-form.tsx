"use client";

import { useState } from "react";
import type { TeamRole } from "@/lib/auth/access";
import { Field } from "@/app/(dashboard)/_ui/field";
import { api } from "@/app/(dashboard)/_ui/api";
import { submitFormData, useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

const rank: Record<TeamRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

export function TokenForm({ myRole, projects }: { myRole: TeamRole; projects: { id: string; name: string }[] }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [kind, setKind] = useState("api");
  const create = useApiMutation((form: FormData) => api<{ token: string }>("/api/tokens", {
    method: "POST",
    body: { kind: form.get("kind"), name: form.get("name"), role: form.get("role") ?? undefined, projectId: form.get("projectId"), expiresInDays: form.get("expiresInDays") },
  }), { refresh: true, onSuccess: (created) => setSecret(created.token) });
  const { error, pending, fieldError } = create;
  return (
    <form onSubmit={submitFormData(create)} className="stack" noValidate>
      <div className="form-row">
        <Field label="Kind" hint={kind === "runner" ? "Opens only the runner API: for agents on another machine" : "For CI and scripts: the dashboard's API"} error={fieldError("kind")}>
          <select name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="api">API token</option>
            <option value="runner">Runner token</option>
          </select>
        </Field>
        <Field label="Name" hint="What uses it: a runner, CI, a script" error={fieldError("name")}>
          <input name="name" required maxLength={100} />
        </Field>
        {/* A runner token has no role: it opens only the runner API. */}
        {kind === "api" && (
          <Field label="Role" error={fieldError("role")}>
            <select name="role" defaultValue="operator">
              {(["viewer", "operator", "admin", "owner"] as TeamRole[]).filter((r) => rank[r] <= rank[myRole]).map((r) => <option key={r}>{r}</option>)}
            </select>
          </Field>
        )}
        <Field label="Project" error={fieldError("projectId")}>
          <select name="projectId" defaultValue="">
            <option value="">All projects</option>
            {projects.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
          </select>
        </Field>
        <Field label="Expires after (days)" hint="Empty: never" error={fieldError("expiresInDays")}>
          <input name="expiresInDays" type="number" min={1} max={365} />
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
