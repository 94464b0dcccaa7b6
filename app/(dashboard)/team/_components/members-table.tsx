"use client";

import type { TeamRole } from "@/lib/db";
import { useSend } from "./use-send";

export interface MemberRow { id: string; userId: string; email: string; name: string | null; role: TeamRole; since: string | Date }

const roles: TeamRole[] = ["owner", "admin", "operator", "viewer"];
const rank: Record<TeamRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

export function MembersTable({ members, myRole, myUserId }: { members: MemberRow[]; myRole: TeamRole; myUserId: string }) {
  const { send, error, pending } = useSend();
  const canManage = (m: MemberRow) => rank[myRole] >= rank.admin && rank[myRole] >= rank[m.role];
  return (
    <div className="table-wrap">
      <table className="table" data-testid="members">
        <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.id}>
              <td>
                <div>{m.name ?? m.email}{m.userId === myUserId && <span className="muted"> (you)</span>}</div>
                {m.name && <div className="muted small">{m.email}</div>}
              </td>
              <td>
                {canManage(m) ? (
                  <select aria-label={`Role of ${m.email}`} value={m.role} disabled={pending}
                    onChange={(e) => send(`/api/team/members/${m.id}`, { method: "PATCH", body: { role: e.target.value } })}>
                    {roles.filter((r) => rank[r] <= rank[myRole]).map((r) => <option key={r} value={r}>{r}</option>)}
                  </select>
                ) : <span className="badge">{m.role}</span>}
              </td>
              <td className="actions">
                {canManage(m) && m.userId !== myUserId && (
                  <button type="button" className="secondary small" disabled={pending}
                    onClick={() => confirm(`Remove ${m.email} from the team?`) && send(`/api/team/members/${m.id}`, { method: "DELETE" })}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <p className="error" role="alert">{error.message}</p>}
    </div>
  );
}
