import { listApprovals } from "@/lib/approvals/list";
import { listPolicies } from "@/lib/approvals/policy";
import { roleAtLeast } from "@/lib/auth/access";
import { requirePageActor } from "@/app/(dashboard)/current";
import { ApprovalCard } from "./_components/approval-card";
import { PolicyTable } from "./_components/policy-table";

export const dynamic = "force-dynamic";

export default async function ApprovalsPage() {
  const { viewer, actor } = await requirePageActor();
  const [pending, approved, rejected, policies] = await Promise.all([
    listApprovals(actor, { status: "pending" }),
    listApprovals(actor, { status: "approved", limit: 10 }),
    listApprovals(actor, { status: "rejected", limit: 10 }),
    listPolicies(actor),
  ]);
  const decided = [...approved, ...rejected].sort((a, b) => +new Date(b.decidedAt ?? 0) - +new Date(a.decidedAt ?? 0)).slice(0, 10);
  const canDecide = roleAtLeast(viewer.role, "operator");
  return (
    <div className="stack">
      <h1>Approvals</h1>
      <section className="stack" aria-labelledby="waiting-h">
        <h2 id="waiting-h">Waiting ({pending.length})</h2>
        {pending.length === 0 ? (
          <div className="panel empty">Nothing waits for a decision. Work that a project’s policy holds back shows up here.</div>
        ) : (
          <div className="approval-list">{pending.map((a) => <ApprovalCard key={a.id} item={a} canDecide={canDecide} />)}</div>
        )}
      </section>
      <section className="panel stack" aria-labelledby="policy-h">
        <h2 id="policy-h">Policies</h2>
        <PolicyTable policies={policies} canEdit={roleAtLeast(viewer.role, "admin")} />
      </section>
      {decided.length > 0 && (
        <section className="stack" aria-labelledby="decided-h">
          <h2 id="decided-h">Recently decided</h2>
          <div className="approval-list">{decided.map((a) => <ApprovalCard key={a.id} item={a} canDecide={false} />)}</div>
        </section>
      )}
    </div>
  );
}
