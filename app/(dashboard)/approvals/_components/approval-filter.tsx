import { KIND_LABELS } from "./kind-labels";

/** Narrows the inbox to one project or one kind of decision; a plain GET form, so the view is a link. */
export function ApprovalFilter({ projects, projectId, kind }: { projects: { id: string; name: string }[]; projectId?: string; kind?: string }) {
  return (
    <form method="get" className="row filter" aria-label="Filter approvals">
      <label className="field">
        <span>Project</span>
        <select name="project" defaultValue={projectId ?? ""}>
          <option value="">All projects</option>
          {projects.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
        </select>
      </label>
      <label className="field">
        <span>Kind</span>
        <select name="kind" defaultValue={kind ?? ""}>
          <option value="">All kinds</option>
          {Object.entries(KIND_LABELS).map(([k, label]) => <option key={k} value={k}>{label}</option>)}
        </select>
      </label>
      <button type="submit" className="secondary">Filter</button>
    </form>
  );
}
