"use client";

import { Field } from "@/app/(dashboard)/_ui/field";
import { AdminTable, RowAction } from "@/app/(dashboard)/_ui/admin-table";
import { api } from "@/app/(dashboard)/_ui/api";
import { submitFormData, useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

export type CredentialView = { name: string; last4: string; updatedAt: string | Date };

/** Agent credentials: set or replace by name, delete; a stored value is never shown again. */
export function CredentialsPanel({ credentials }: { credentials: CredentialView[] }) {
  const save = useApiMutation((data: FormData) => api("/api/team/credentials", {
    method: "POST", body: { name: String(data.get("name") ?? "").trim(), value: data.get("value") },
  }), { refresh: true });
  const remove = useApiMutation((name: string) => api(`/api/team/credentials/${name}`, { method: "DELETE" }), { refresh: true });
  const { error, fieldError } = save;
  const pending = save.pending || remove.pending;
  return (
    <div className="stack">
      {credentials.length === 0 ? <p className="muted">No agent credentials yet.</p> : (
        <AdminTable testId="credentials" headers={["Name", "Value", "Updated", null]} error={remove.error}>
          {credentials.map((c) => (
            <tr key={c.name}>
              <td><code>{c.name}</code></td>
              <td><code aria-label={`ending in ${c.last4}`}>••••{c.last4}</code></td>
              <td className="muted small">{new Date(c.updatedAt).toLocaleString()}</td>
              <td className="actions">
                <RowAction label={`Delete ${c.name}`} question={`Delete ${c.name}? Runs will no longer receive it.`} disabled={pending}
                  run={() => remove.mutate(c.name)} />
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <form method="post" className="stack" noValidate onSubmit={submitFormData(save)}>
        <div className="form-row">
          <Field label="Variable name" hint="e.g. ANTHROPIC_API_KEY" error={fieldError("name")}>
            <input name="name" autoComplete="off" spellCheck={false} />
          </Field>
          <Field label="Value" hint="stored encrypted; never shown again" error={fieldError("value")}>
            <input name="value" type="password" autoComplete="new-password" />
          </Field>
        </div>
        {error && !error.field && <p className="error" role="alert">{error.message}</p>}
        <button type="submit" disabled={pending}>Save credential</button>
      </form>
    </div>
  );
}
