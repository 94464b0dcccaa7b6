import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/teams/membership";
import { requireViewer } from "../../current";
import { LoopControls } from "./_components/loop-controls";
import { PromptBoard } from "./_components/prompt-board";
import { RunningAgents } from "./_components/running-agents";
import { ActivityLog } from "./_components/activity-log";

export const dynamic = "force-dynamic";

export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await requireViewer();
  const project = await getDb().project.findFirst({ where: { id, teamId: viewer.team.id, archivedAt: null } });
  if (!project) notFound();
  const canOperate = roleAtLeast(viewer.role, "operator");
  return (
    <div className="project">
      <div className="row spread">
        <div>
          <h1>{project.name}</h1>
          <p className="muted">{project.repoKind === "github" ? `${project.githubOwner}/${project.githubRepo}` : project.repoPath}</p>
        </div>
        {roleAtLeast(viewer.role, "admin") && <Link className="button secondary" href={`/projects/${id}/settings`}>Settings</Link>}
      </div>
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
