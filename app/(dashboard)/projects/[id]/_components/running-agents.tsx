"use client";

import Link from "next/link";
import { formatDuration, useNow } from "@/app/(dashboard)/_ui/time";
import { useLiveRuns } from "@/app/(dashboard)/_data/use-live-runs";

export function RunningAgents({ projectId }: { projectId: string }) {
  const { data: runs } = useLiveRuns(projectId);
  const now = useNow();
  return (
    <section className="panel" aria-label="Running agents">
      <h2>Agents <span className="muted">{runs?.length ?? 0}</span></h2>
      {runs && runs.length === 0 && <p className="muted">No agent is running. When the loop is on, the next eligible prompt starts here.</p>}
      <ul className="runs">
        {runs?.map((r) => {
          const since = new Date(r.startedAt ?? r.queuedAt).getTime();
          const leaseLeft = r.leaseExpiresAt ? new Date(r.leaseExpiresAt).getTime() - now : null;
          const health = r.status === "queued" ? "waiting for a worker" : leaseLeft === null ? "no lease" : leaseLeft > 0 ? `lease ok (${formatDuration(leaseLeft)})` : "lease expired";
          return (
            <li key={r.id} data-testid="running-agent">
              <Link href={`/runs/${r.id}`}>{r.prompt ? `#${r.prompt.number} ${r.prompt.title}` : `${r.kind} run`}</Link>
              <span className={`badge ${r.status}`}>{r.status}</span>
              <span className="muted small">{formatDuration(now - since)} · {r.adapter}{r.model ? ` (${r.model})` : ""} · attempt {r.attempt}</span>
              <span className={leaseLeft !== null && leaseLeft <= 0 ? "small error" : "small muted"}>{health}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
