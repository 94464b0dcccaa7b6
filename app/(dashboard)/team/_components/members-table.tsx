"use client";

import { roleAtLeast, roles, type TeamRole } from "@/lib/auth/access";
import { AdminTable, RowAction } from "@/app/(dashboard)/_ui/admin-table";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

export interface MemberRow { id: string; userId: string; email: string; name: string | null; role: TeamRole; since: string | Date }

export function MembersTable({ members, myRole, myUserId }: { members: MemberRow[]; myRole: TeamRole; myUserId: string }) {
  // One mutation for both row actions, so the table shows only the last one's error.
  const change = useApiMutation(({ id, role }: { id: string; role?: string }) =>
    api(`/api/team/members/${id}`, role === undefined ? { method: "DELETE" } : { method: "PATCH", body: { role } }), { refresh: true });
  const canManage = (m: MemberRow) => roleAtLeast(myRole, "admin") && roleAtLeast(myRole, m.role);
  return (
    <AdminTable testId="members" headers={["Member", "Role", null]} error={change.error}>
          {members.map((m) => (
            <tr key={m.id}>
              <td>
                <div>{m.name ?? m.email}{m.userId === myUserId && <span className="muted"> (you)</span>}</div>
                {m.name && <div className="muted small">{m.email}</div>}
              </td>
              <td>
                {canManage(m) ? (
                  <select aria-label={`Role of ${m.email}`} value={m.role} disabled={change.pending}
                    onChange={(e) => change.mutate({ id: m.id, role: e.target.value })}>
                    {roles.filter((r) => roleAtLeast(myRole, r)).map((r) => <option key={r} value={r}>{r}</option>)}
                  </select>
                ) : <span className="badge">{m.role}</span>}
              </td>
              <td className="actions">
                {canManage(m) && m.userId !== myUserId && (
                  <RowAction label="Remove" question={`Remove ${m.email} from the team?`} disabled={change.pending}
                    run={() => change.mutate({ id: m.id })} />
                )}
              </td>
            </tr>
          ))}
    </AdminTable>
  );
}
