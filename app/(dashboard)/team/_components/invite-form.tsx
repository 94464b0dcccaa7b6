"use client";

import { useState } from "react";
import type { TeamRole } from "@/lib/auth/access";
import { Field } from "@/app/(dashboard)/_ui/field";
import { api } from "@/app/(dashboard)/_ui/api";
import { submitFormData, useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

const rank: Record<TeamRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

export function InviteForm({ myRole }: { myRole: TeamRole }) {
  const [link, setLink] = useState<string | null>(null);
  const create = useApiMutation((form: FormData) => api<{ url: string }>("/api/invitations", {
    method: "POST",
    body: { role: form.get("role"), email: form.get("email"), expiresInHours: form.get("expiresInHours") },
  }), { refresh: true, onSuccess: (created) => setLink(created.url) });
  const { error, pending, fieldError } = create;
  return (
    <form onSubmit={submitFormData(create)} className="stack" noValidate>
      <div className="form-row">
        <Field label="Role" error={fieldError("role")}>
          <select name="role" defaultValue="operator">
            {(["viewer", "operator", "admin", "owner"] as TeamRole[]).filter((r) => rank[r] <= rank[myRole]).map((r) => <option key={r}>{r}</option>)}
          </select>
        </Field>
        <Field label="Email (optional)" hint="Only this address can use the link" error={fieldError("email")}>
          <input name="email" type="email" autoComplete="off" />
        </Field>
        <Field label="Expires after (hours)" error={fieldError("expiresInHours")}>
          <input name="expiresInHours" type="number" min={1} max={720} defaultValue={72} />
        </Field>
      </div>
      {error && !error.field && <p className="error" role="alert">{error.message}</p>}
      <button type="submit" disabled={pending}>Create invitation link</button>
      {link && (
        <div className="secret" role="status">
          <p>Send this link to the person you invite. It is shown only now.</p>
          <code data-testid="invite-link">{link}</code>{" "}
          <button type="button" className="secondary small" onClick={() => navigator.clipboard?.writeText(link)}>Copy</button>
        </div>
      )}
    </form>
  );
}
