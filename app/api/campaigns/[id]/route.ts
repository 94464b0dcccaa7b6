import { requireCampaignProject } from "@/lib/auth/objects";
import { campaignAction, controlCampaign } from "@/lib/campaigns/controls";
import { getCampaignView } from "@/lib/campaigns/queries";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const { id } = await params;
  await requireCampaignProject(await requireActor(req), id);
  return Response.json(await getCampaignView(id));
});

/** The campaign's controls: `{ action: "start" | "pause" | "cancel" | "replan" }`. */
export const POST = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const { id } = await params;
  const { action } = campaignAction.parse(await readJson(req));
  const project = await requireCampaignProject(actor, id, "operator");
  await controlCampaign(actor, project, id, action);
  return Response.json(await getCampaignView(id));
});
