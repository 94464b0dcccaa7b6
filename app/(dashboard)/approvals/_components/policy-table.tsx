"use client";

import { AdminTable } from "@/app/(dashboard)/_ui/admin-table";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

export interface PolicyRow { projectId: string; name: string; approvalPolicy: string; approveMerges: boolean; approveFixPastCap: boolean }

export function PolicyTable({ policies, canEdit }: { policies: PolicyRow[]; canEdit: boolean }) {
  const change = useApiMutation(({ projectId, ...body }: Partial<PolicyRow> & { projectId: string }) =>
    api(`/api/approvals/policy/${projectId}`, { method: "PATCH", body }), { refresh: true });
  if (policies.length === 0) return <p className="muted">No projects yet.</p>;
  const save = (p: PolicyRow, body: Partial<PolicyRow>) => change.mutate({ ...body, projectId: p.projectId });
  const pending = change.pending;
  return (
    <AdminTable testId="policies" headers={["Project", "Before a prompt runs", "Before a merge", "Fix cycles past the cap"]} error={change.error}>
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
    </AdminTable>
  );
}
