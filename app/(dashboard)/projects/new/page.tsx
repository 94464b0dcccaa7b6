import { defaultProfileId, listProfileChoices } from "@/lib/profiles/profiles";
import { requireViewer } from "@/app/(dashboard)/current";
import { NewProjectForm } from "./new-project-form";

export default async function NewProjectPage() {
  const viewer = await requireViewer();
  const [profiles, defaultId] = await Promise.all([listProfileChoices(viewer.team.id), defaultProfileId(viewer.team.id)]);
  return (
    <>
      <h1>New project</h1>
      <NewProjectForm profiles={profiles} defaultProfileId={defaultId} />
    </>
  );
}
