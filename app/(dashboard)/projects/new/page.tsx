import { getDb } from "@/lib/db";
import { requireViewer } from "../../current";
import { NewProjectForm } from "./new-project-form";

export default async function NewProjectPage() {
  const viewer = await requireViewer();
  const profiles = await getDb().agentProfile.findMany({ where: { teamId: viewer.team.id }, select: { id: true, name: true, adapter: true } });
  return (
    <>
      <h1>New project</h1>
      <NewProjectForm profiles={profiles} />
    </>
  );
}
