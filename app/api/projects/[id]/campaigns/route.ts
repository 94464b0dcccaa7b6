import { requireProject } from "@/lib/auth/actor";
import { createCampaign } from "@/lib/campaigns/create";
import { listCampaigns } from "@/lib/campaigns/queries";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const project = await requireProject(await requireActor(req), (await params).id);
  return Response.json({ campaigns: await listCampaigns(project.id) });
});

export const POST = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requireProject(actor, (await params).id, "operator");
  const campaign = await createCampaign(actor, project, input as never);
  return Response.json({ campaign }, { status: 201 });
});
