"use client";

import { useSend } from "../../team/_components/use-send";

export interface PolicyRow { projectId: string; name: string; approvalPolicy: string; approveMerges: boolean; approveFixPastCap: boolean }

export function PolicyTable({ policies, canEdit }: { policies: PolicyRow[]; canEdit: boolean }) {
  const { send, error, pending } = useSend();
  if (policies.length === 0) return <p className="muted">No projects yet.</p>;
  const save = (p: PolicyRow, body: Partial<PolicyRow>) => send(`/api/approvals/policy/${p.projectId}`, { method: "PATCH", body });
  return (
    <div className="table-wrap">
      <table className="table" data-testid="policies">
        <thead><tr><th scope="col">Project</th><th scope="col">Before a prompt runs</th><th scope="col">Before a merge</th><th scope="col">Fix cycles past the cap</th></tr></thead>
        <tbody>
          {policies.map((p) => (
            <tr key={p.projectId}>
              <td>{p.name}</td>
              <td>
                <select aria-label={`Prompt approval for ${p.name}`} value={p.approvalPolicy} disabled={!canEdit || pending}
                  onChange={(e) => save(p, { approvalPolicy: e.target.value })}>
                  <option value="none">no approval</option>
                  <option value="planner">planner-created prompts</option>
                  <option value="all">every prompt</option>
                </select>
              </td>
              <td>
                <input type="checkbox" aria-label={`Approve merges for ${p.name}`} checked={p.approveMerges} disabled={!canEdit || pending}
                  onChange={(e) => save(p, { approveMerges: e.target.checked })} />
              </td>
              <td>
                <input type="checkbox" aria-label={`Approve fix cycles past the cap for ${p.name}`} checked={p.approveFixPastCap} disabled={!canEdit || pending}
                  onChange={(e) => save(p, { approveFixPastCap: e.target.checked })} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <p className="error" role="alert">{error.message}</p>}
    </div>
  );
}
