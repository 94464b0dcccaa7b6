import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/teams/membership";
import { requireViewer } from "../../../current";
import { SettingsForm } from "./settings-form";

export const dynamic = "force-dynamic";

export default async function SettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await requireViewer();
  const project = await getDb().project.findFirst({ where: { id, teamId: viewer.team.id }, include: { settings: true } });
  if (!project?.settings) notFound();
  const profiles = await getDb().agentProfile.findMany({ where: { teamId: viewer.team.id }, select: { id: true, name: true, adapter: true }, orderBy: { name: "asc" } });
  const { projectId: _p, updatedAt: _u, ...settings } = project.settings;
  return (
    <>
      <h1>{project.name}: settings</h1>
      <SettingsForm projectId={id} initial={settings} profiles={profiles} readOnly={!roleAtLeast(viewer.role, "admin")} />
    </>
  );
}
