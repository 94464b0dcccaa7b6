import { requireCampaignProject } from "@/lib/auth/objects";
import { roleAtLeast } from "@/lib/auth/access";
import { orNotFound, requirePageActor } from "@/app/(dashboard)/current";
import { CampaignDetail } from "./_components/campaign-detail";

export const dynamic = "force-dynamic";

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer, actor } = await requirePageActor();
  const project = await orNotFound(requireCampaignProject(actor, id));
  return <CampaignDetail campaignId={id} projectId={project.id} canOperate={roleAtLeast(viewer.role, "operator")} />;
}
