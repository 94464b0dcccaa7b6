import type { ProjectListItem } from "@/lib/projects/queries";

export function ProjectCard({ project: p }: { project: ProjectListItem }) {
  return (
    <article className="panel" data-testid="project-card">
      <h2 style={{ margin: 0, fontSize: "1.1rem" }}>{p.name}</h2>
      <p className="muted" style={{ margin: ".25rem 0", wordBreak: "break-all" }}>{p.repo} · {p.baseBranch}</p>
      <span className={`badge ${p.mode}`}>loop {p.mode}</span>{" "}
      <span className="badge">{p.parallelEnabled ? `parallel ≤ ${p.maxParallel}` : "serial"}</span>
      <div className="stats">
        <span>{p.running} running</span>
        <span>{p.pending} pending</span>
        <span>{p.done} done</span>
        <span>{p.failed} failed</span>
      </div>
      <p className="muted" style={{ fontSize: ".8rem", marginBottom: 0 }}>
        {p.lastActivityAt ? `last activity ${p.lastActivityAt.toISOString()}` : "no activity yet"}
      </p>
    </article>
  );
}
