import Link from "next/link";
import { listProjectsWithStatus } from "@/lib/projects/queries";
import { roleAtLeast } from "@/lib/auth/access";
import { requireViewer } from "@/app/(dashboard)/current";
import type { ProjectListJson } from "@/app/(dashboard)/_data/wire";
import { ProjectsList } from "@/app/(dashboard)/projects-list";

export const dynamic = "force-dynamic";

export default async function ProjectsPage() {
  const viewer = await requireViewer();
  const projects = await listProjectsWithStatus(viewer.team.id);
  // Serialized as the API would send it, so the live query can replace it seamlessly.
  const initial = JSON.parse(JSON.stringify(projects)) as ProjectListJson[];
  return (
    <>
      <div className="row spread">
        <h1>Projects</h1>
        {roleAtLeast(viewer.role, "admin") && <Link className="button" href="/projects/new">New project</Link>}
      </div>
      <ProjectsList initial={initial} />
    </>
  );
}
