import { requireProject } from "@/lib/auth/actor";
import { listProfileChoices } from "@/lib/profiles/profiles";
import { getProjectSettings } from "@/lib/projects/settings";
import { roleAtLeast } from "@/lib/auth/access";
import { orNotFound, requirePageActor } from "@/app/(dashboard)/current";
import { SettingsForm } from "./settings-form";
import { GithubSection } from "./github-section";
import { ProjectForm } from "./project-form";
import { existsSync } from "node:fs";
import { getEnv } from "@/lib/env";
import { dataDir, folderBytes, worktreesDir } from "@/lib/data-dir";
import { EGRESS_PRESETS } from "@/lib/sandbox/presets";
import { SandboxNotice } from "@/app/(dashboard)/projects/[id]/_components/sandbox-notice";

export const dynamic = "force-dynamic";

export default async function SettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer, actor } = await requirePageActor();
  const project = await orNotFound(requireProject(actor, id));
  const [{ projectId: _p, updatedAt: _u, ...settings }, profiles] = await Promise.all([getProjectSettings(id), listProfileChoices(viewer.team.id)]);
  const env = getEnv();
  const [dataBytes, worktreeBytes] = await Promise.all([folderBytes(dataDir()), existsSync(worktreesDir(id)) ? folderBytes(worktreesDir(id)) : 0]);
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
      <SettingsForm projectId={id} initial={settings} profiles={profiles} presets={presets} readOnly={!roleAtLeast(viewer.role, "admin")}
        budgetsReadOnly={!roleAtLeast(viewer.role, "owner")} />
      <p className="muted small">Spawn rate limit (all projects): {env.SPAWN_RATE_MAX} agent starts per {env.SPAWN_RATE_DURATION_MS / 1000} s,
        set by the operator with SPAWN_RATE_MAX and SPAWN_RATE_DURATION_MS (BullMQ&apos;s limiter is global to the spawn queue).</p>
      <h2>Disk</h2>
      <p data-testid="disk-usage">Data folder: <strong>{bytesText(dataBytes)}</strong> in all · this project&apos;s worktrees: <strong>{bytesText(worktreeBytes)}</strong></p>
      <p className="muted small">Worktrees of failed, cancelled and no-change runs are removed automatically; one holding commits that are not
        merged is kept {env.WORKTREE_RETENTION_DAYS} days (WORKTREE_RETENTION_DAYS) so its work can be inspected.</p>
    </>
  );
}

function bytesText(bytes: number | null): string {
  if (bytes === null) return "unknown";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
