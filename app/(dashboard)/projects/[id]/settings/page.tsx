import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/teams/membership";
import { requireViewer } from "../../../current";
import { SettingsForm } from "./settings-form";
import { ProjectForm } from "./project-form";
import { getEnv } from "@/lib/env";

export const dynamic = "force-dynamic";

export default async function SettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await requireViewer();
  const project = await getDb().project.findFirst({ where: { id, teamId: viewer.team.id }, include: { settings: true } });
  if (!project?.settings) notFound();
  const profiles = await getDb().agentProfile.findMany({ where: { teamId: viewer.team.id }, select: { id: true, name: true, adapter: true }, orderBy: { name: "asc" } });
  const { projectId: _p, updatedAt: _u, ...settings } = project.settings;
  const env = getEnv();
  return (
    <>
      <h1>{project.name}: settings</h1>
      <ProjectForm id={id} name={project.name} repoKind={project.repoKind} repoPath={project.repoPath} baseBranch={project.baseBranch} readOnly={!roleAtLeast(viewer.role, "admin")} />
      <h2>Loop and agents</h2>
      <SettingsForm projectId={id} initial={settings} profiles={profiles} readOnly={!roleAtLeast(viewer.role, "admin")} />
      <p className="muted small">Spawn rate limit (all projects): {env.SPAWN_RATE_MAX} agent starts per {env.SPAWN_RATE_DURATION_MS / 1000} s,
        set by the operator with SPAWN_RATE_MAX and SPAWN_RATE_DURATION_MS (BullMQ&apos;s limiter is global to the spawn queue).</p>
    </>
  );
}
