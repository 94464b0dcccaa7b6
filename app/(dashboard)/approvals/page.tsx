import { listApprovals } from "@/lib/approvals/list";
import { listPolicies } from "@/lib/approvals/policy";
import { roleAtLeast } from "@/lib/auth/access";
import { requirePageActor } from "@/app/(dashboard)/current";
import { ApprovalCard } from "./_components/approval-card";
import { PolicyTable } from "./_components/policy-table";
import { ApprovalFilter } from "./_components/approval-filter";
import { listProjectChoices } from "@/lib/projects/queries";

export const dynamic = "force-dynamic";

const KINDS = ["prompt_run", "pr_merge", "fix_cycle_cap"] as const;
type Kind = (typeof KINDS)[number];

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<{ project?: string; kind?: string }> }) {
  const { viewer, actor } = await requirePageActor();
  const sp = await searchParams;
  const projects = await listProjectChoices(actor.teamId);
  // Unknown values show everything rather than an error: the filter is a view, not an input.
  const filter = {
    projectId: projects.some((p) => p.id === sp.project) ? sp.project : undefined,
    kind: KINDS.includes(sp.kind as Kind) ? (sp.kind as Kind) : undefined,
  };
  const [pending, approved, rejected, policies] = await Promise.all([
    listApprovals(actor, { status: "pending", ...filter }),
    listApprovals(actor, { status: "approved", limit: 10, ...filter }),
    listApprovals(actor, { status: "rejected", limit: 10, ...filter }),
    listPolicies(actor),
  ]);
  const decided = [...approved, ...rejected].sort((a, b) => +new Date(b.decidedAt ?? 0) - +new Date(a.decidedAt ?? 0)).slice(0, 10);
  const canDecide = roleAtLeast(viewer.role, "operator");
  return (
    <div className="stack">
      <h1>Approvals</h1>
      <ApprovalFilter projects={projects} projectId={filter.projectId} kind={filter.kind} />
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
