import Link from "next/link";
import { requireProject } from "@/lib/auth/actor";
import { roleAtLeast } from "@/lib/auth/access";
import { orNotFound, requirePageActor } from "@/app/(dashboard)/current";
import { CampaignList } from "./_components/campaign-list";

export const dynamic = "force-dynamic";

export default async function CampaignsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer, actor } = await requirePageActor();
  const project = await orNotFound(requireProject(actor, id));
  return (
    <div className="campaigns">
      <p><Link href={`/projects/${id}`}>← {project.name}</Link></p>
      <h1>Campaigns</h1>
      <p className="muted">A campaign turns one goal into a plan of tasks: an architect plans, workers run the tasks through the loop, a reflector checks at 25, 50 and 75 % that the work still serves the goal, and a task that keeps failing sends the campaign back to planning.</p>
      <CampaignList projectId={id} canOperate={roleAtLeast(viewer.role, "operator")} />
    </div>
  );
}
