"use client";

import { useState } from "react";
import type { TeamRole } from "@/lib/auth/access";
import { Field } from "@/app/(dashboard)/_ui/field";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

const empty = { role: "operator", email: "", expiresInHours: "72" };
const rank: Record<TeamRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

export function InviteForm({ myRole }: { myRole: TeamRole }) {
  const [link, setLink] = useState<string | null>(null);
  // Controlled: a refused invitation must keep the role chosen, never fall back to a wider one.
  const [draft, setDraft] = useState(empty);
  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const create = useApiMutation((d: typeof empty) => api<{ url: string }>("/api/invitations", { method: "POST", body: d }),
    { refresh: true, onSuccess: (created) => { setLink(created.url); setDraft(empty); } });
  const { error, pending, fieldError } = create;
  return (
    <form method="post" onSubmit={(e) => { e.preventDefault(); create.mutate(draft); }} className="stack" noValidate aria-label="New invitation">
      <div className="form-row">
        <Field label="Role" error={fieldError("role")}>
          <select name="role" value={draft.role} onChange={set("role")}>
            {(["viewer", "operator", "admin", "owner"] as TeamRole[]).filter((r) => rank[r] <= rank[myRole]).map((r) => <option key={r}>{r}</option>)}
          </select>
        </Field>
        <Field label="Email (optional)" hint="Only this address can use the link" error={fieldError("email")}>
          <input name="email" type="email" autoComplete="off" value={draft.email} onChange={set("email")} />
        </Field>
        <Field label="Expires after (hours)" error={fieldError("expiresInHours")}>
          <input name="expiresInHours" type="number" min={1} max={720} value={draft.expiresInHours} onChange={set("expiresInHours")} />
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
