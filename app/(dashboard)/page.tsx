import { listProjectsWithStatus } from "@/lib/projects/queries";
import { requireViewer } from "./current";
import { ProjectCard } from "./project-card";

export const dynamic = "force-dynamic";

export default async function ProjectsPage() {
  const viewer = await requireViewer();
  const projects = await listProjectsWithStatus(viewer.team.id);
  return (
    <>
      <h1>Projects</h1>
      {projects.length === 0 ? (
        <div className="panel">
          <p>No projects yet. A project is a git repository Ringmaster runs agents on.</p>
        </div>
      ) : (
        <div className="grid">
          {projects.map((p) => <ProjectCard key={p.id} project={p} />)}
        </div>
      )}
    </>
  );
}
