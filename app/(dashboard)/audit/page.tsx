import Link from "next/link";
import { listAudit } from "@/lib/audit/list";
import { roleAtLeast } from "@/lib/auth/access";
import { requirePageActor } from "@/app/(dashboard)/current";

export const dynamic = "force-dynamic";

const show = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v));

export default async function AuditPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const { viewer, actor } = await requirePageActor();
  if (!roleAtLeast(viewer.role, "admin")) {
    return <div className="panel"><h1>Audit log</h1><p>Only owners and admins read the audit log.</p></div>;
  }
  const { before } = await searchParams;
  const { events, next } = await listAudit(actor, { before: before && /^\d+$/.test(before) ? before : undefined });
  return (
    <div className="stack">
      <h1>Audit log</h1>
      {events.length === 0 ? (
        <div className="panel empty">Nothing recorded yet. Every change by a person, a token or Ringmaster itself appears here.</div>
      ) : (
        <div className="panel table-wrap">
          <table className="table audit" data-testid="audit">
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Before → after</th></tr></thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td className="nowrap"><time dateTime={e.at.toISOString()}>{e.at.toISOString().replace("T", " ").slice(0, 19)}</time></td>
                  <td>{e.actorLabel}</td>
                  <td><code>{e.action}</code><div className="muted small">{e.targetType} {e.targetId}</div></td>
                  <td className="change"><code>{show(e.before)}</code>{e.before != null && e.after != null && " → "}<code>{show(e.after)}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="row">
        {before && <Link href="/audit">Newest</Link>}
        {next && <Link href={`/audit?before=${next}`}>Older →</Link>}
      </p>
    </div>
  );
}
