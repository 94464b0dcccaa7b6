"use client";

import Link from "next/link";
import { useProjects } from "@/app/(dashboard)/_data/use-projects";
import type { ProjectListJson } from "@/app/(dashboard)/_data/wire";
import { Ago } from "@/app/(dashboard)/_ui/time";

export function ProjectsList({ initial }: { initial: ProjectListJson[] }) {
  const { data } = useProjects(initial);
  if (data.length === 0) {
    return (
      <div className="panel empty">
        <p><strong>No projects yet.</strong> A project is a git repository Ringmaster runs agents on.</p>
        <Link className="button" href="/projects/new">Create your first project</Link>
      </div>
    );
  }
  return (
    <div className="grid">
      {data.map((p) => (
        <Link key={p.id} href={`/projects/${p.id}`} className="panel card-link" data-testid="project-card">
          <h2>{p.name}</h2>
          <p className="muted small ellipsis">{p.repo} · {p.baseBranch}</p>
          <span className={`badge ${p.mode}`}>loop {p.mode}</span>{" "}
          <span className="badge">{p.parallelEnabled ? `parallel ≤ ${p.maxParallel}` : "serial"}</span>
          <div className="stats">
            <span><strong>{p.running}</strong>/{p.parallelEnabled ? p.maxParallel : 1} running</span>
            <span><strong>{p.pending}</strong> pending</span>
            <span><strong>{p.done}</strong> done</span>
            <span className={p.failed ? "error" : undefined}><strong>{p.failed}</strong> failed</span>
          </div>
          <p className="small" data-testid="spend-today">
            today ${p.spentTodayUsd.toFixed(2)}{p.dailyBudgetUsd !== null && <> of ${p.dailyBudgetUsd.toFixed(2)} budget</>}
          </p>
          {p.pauseReason && <p className="small warn" data-testid="pause-reason">{p.pauseReason}</p>}
          <p className="muted small">last activity <Ago at={p.lastActivityAt} /></p>
        </Link>
      ))}
    </div>
  );
}
