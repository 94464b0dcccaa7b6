import Link from "next/link";
import { listAudit } from "@/lib/audit/list";
import { AUDIT_AREAS, type AuditArea } from "@/lib/audit/sentence";
import { roleAtLeast } from "@/lib/auth/access";
import { requirePageActor } from "@/app/(dashboard)/current";
import { Ago } from "@/app/(dashboard)/_ui/time";

export const dynamic = "force-dynamic";

const show = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v));

export default async function AuditPage({ searchParams }: { searchParams: Promise<{ before?: string; area?: string }> }) {
  const { viewer, actor } = await requirePageActor();
  if (!roleAtLeast(viewer.role, "admin")) {
    return <div className="panel"><h1>Audit log</h1><p>Only owners and admins read the audit log.</p></div>;
  }
  const sp = await searchParams;
  const before = sp.before && /^\d+$/.test(sp.before) ? sp.before : undefined;
  const area = AUDIT_AREAS.includes(sp.area as AuditArea) ? (sp.area as AuditArea) : undefined;
  const { events, next } = await listAudit(actor, { before, area });
  const href = (q: { before?: string }) => `/audit?${new URLSearchParams({ ...(area ? { area } : {}), ...(q.before ? { before: q.before } : {}) })}`;
  return (
    <div className="stack">
      <h1>Audit log</h1>
      <form method="get" className="row filter" aria-label="Filter the audit log">
        <label className="field">
          <span>About</span>
          <select name="area" defaultValue={area ?? ""}>
            <option value="">Everything</option>
            {AUDIT_AREAS.map((a) => <option key={a} value={a}>{a}</option>)}
          </select>
        </label>
        <button type="submit" className="secondary">Filter</button>
      </form>
      {events.length === 0 ? (
        <div className="panel empty">{area ? "Nothing recorded about this yet." : "Nothing recorded yet. Every change by a person, a token or Ringmaster itself appears here."}</div>
      ) : (
        <ol className="panel audit-list" data-testid="audit">
          {events.map((e) => (
            <li key={e.id}>
              <p>{e.sentence}</p>
              <p className="muted small"><Ago at={e.at} /> · <code>{e.action}</code></p>
              {(e.before != null || e.after != null) && (
                <details className="small"><summary>Details</summary><code>{show(e.before)}</code>{e.before != null && e.after != null && " → "}<code>{show(e.after)}</code></details>
              )}
            </li>
          ))}
        </ol>
      )}
      <p className="row">
        {before && <Link href={href({})}>Newest</Link>}
        {next && <Link href={href({ before: next })}>Older →</Link>}
      </p>
    </div>
  );
}
