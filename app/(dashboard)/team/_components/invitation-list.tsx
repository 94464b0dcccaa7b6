"use client";

import type { InvitationView } from "@/lib/teams/invitations";
import { AdminTable, RowAction } from "@/app/(dashboard)/_ui/admin-table";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

export function InvitationList({ invitations }: { invitations: InvitationView[] }) {
  const revoke = useApiMutation((id: string) => api(`/api/invitations/${id}`, { method: "DELETE" }), { refresh: true });
  if (invitations.length === 0) return <p className="muted">No invitations yet.</p>;
  return (
    <AdminTable testId="invitations" headers={["Role", "For", "State", null]} error={revoke.error}>
          {invitations.map((i) => (
            <tr key={i.id}>
              <td>{i.role}</td>
              <td>{i.email ?? <span className="muted">anyone with the link</span>}</td>
              <td>
                <span className={`badge ${i.state}`}>{i.state}</span>
                {i.state === "open" && <span className="muted small"> until {new Date(i.expiresAt).toLocaleString()}</span>}
              </td>
              <td className="actions">
                {i.state === "open" && (
                  <RowAction label="Revoke" disabled={revoke.pending} run={() => revoke.mutate(i.id)} />
                )}
              </td>
            </tr>
          ))}
    </AdminTable>
  );
}
