import { requireProject } from "@/lib/auth/actor";
import { listProfileChoices } from "@/lib/profiles/profiles";
import { getProjectSettings } from "@/lib/projects/settings";
import { roleAtLeast } from "@/lib/auth/access";
import { orNotFound, requirePageActor } from "@/app/(dashboard)/current";
import { SettingsForm } from "./settings-form";
import { GithubSection } from "./github-section";
import { ProjectForm } from "./project-form";
import { getEnv } from "@/lib/env";
import { EGRESS_PRESETS } from "@/lib/sandbox/presets";
import { SandboxNotice } from "@/app/(dashboard)/projects/[id]/_components/sandbox-notice";

export const dynamic = "force-dynamic";

export default async function SettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer, actor } = await requirePageActor();
  const project = await orNotFound(requireProject(actor, id));
  const [{ projectId: _p, updatedAt: _u, ...settings }, profiles] = await Promise.all([getProjectSettings(id), listProfileChoices(viewer.team.id)]);
  const env = getEnv();
  const presets = Object.entries(EGRESS_PRESETS).map(([presetId, p]) => ({ id: presetId, label: p.label, hosts: p.hosts }));
  return (
    <>
      <h1>{project.name}: settings</h1>
      <ProjectForm id={id} name={project.name} repoKind={project.repoKind} repoPath={project.repoPath} baseBranch={project.baseBranch} readOnly={!roleAtLeast(viewer.role, "admin")} />
      {project.repoKind === "github" && (
        <>
          <h2>GitHub</h2>
          <GithubSection projectId={id} repository={`${project.githubOwner}/${project.githubRepo}`} canAdmin={roleAtLeast(viewer.role, "admin")}
            webhookUrl={new URL("/api/webhooks/github", env.APP_URL).toString()} />
        </>
      )}
      <h2>Loop and agents</h2>
      <SandboxNotice unsandboxed={settings.unsandboxed} always />
      <SettingsForm projectId={id} initial={settings} profiles={profiles} presets={presets} readOnly={!roleAtLeast(viewer.role, "admin")} />
      <p className="muted small">Spawn rate limit (all projects): {env.SPAWN_RATE_MAX} agent starts per {env.SPAWN_RATE_DURATION_MS / 1000} s,
        set by the operator with SPAWN_RATE_MAX and SPAWN_RATE_DURATION_MS (BullMQ&apos;s limiter is global to the spawn queue).</p>
    </>
  );
}
