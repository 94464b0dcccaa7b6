import Link from "next/link";
import { requireProject } from "@/lib/auth/actor";
import { getProjectSettings } from "@/lib/projects/settings";
import { roleAtLeast } from "@/lib/auth/access";
import { orNotFound, requirePageActor } from "@/app/(dashboard)/current";
import { LoopControls } from "./_components/loop-controls";
import { PromptBoard } from "./_components/prompt-board";
import { RunningAgents } from "./_components/running-agents";
import { ActivityLog } from "./_components/activity-log";
import { SandboxNotice } from "./_components/sandbox-notice";
import { RunToasts } from "./_components/run-toasts";

export const dynamic = "force-dynamic";

export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer, actor } = await requirePageActor();
  const project = await orNotFound(requireProject(actor, id));
  const { unsandboxed } = await getProjectSettings(id);
  const canOperate = roleAtLeast(viewer.role, "operator");
  return (
    <div className="project">
      <div className="row spread">
        <div>
          <h1>{project.name}</h1>
          <p className="muted">{project.repoKind === "github" ? `${project.githubOwner}/${project.githubRepo}` : project.repoPath}</p>
        </div>
        <div className="row">
          <Link className="button secondary" href={`/projects/${id}/campaigns`}>Campaigns</Link>
          {roleAtLeast(viewer.role, "admin") && <Link className="button secondary" href={`/projects/${id}/settings`}>Settings</Link>}
        </div>
      </div>
      <SandboxNotice unsandboxed={unsandboxed} />
      <RunToasts projectId={id} />
      <LoopControls projectId={id} canOperate={canOperate} />
      <div className="split">
        <PromptBoard projectId={id} canOperate={canOperate} />
        <aside>
          <RunningAgents projectId={id} />
          <ActivityLog projectId={id} />
        </aside>
      </div>
    </div>
  );
}
