"use client";

import type { InvitationView } from "@/lib/teams/invitations";
import { useSend } from "./use-send";

export function InvitationList({ invitations }: { invitations: InvitationView[] }) {
  const { send, error, pending } = useSend();
  if (invitations.length === 0) return <p className="muted">No invitations yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="invitations">
        <thead><tr><th scope="col">Role</th><th scope="col">For</th><th scope="col">State</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
        <tbody>
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
                  <button type="button" className="secondary small" disabled={pending} onClick={() => send(`/api/invitations/${i.id}`, { method: "DELETE" })}>Revoke</button>
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
