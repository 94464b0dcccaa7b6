import { requireProject } from "@/lib/auth/actor";
import { listRuns } from "@/lib/runs/queries";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const project = await requireProject(await requireActor(req), (await params).id);
  const live = new URL(req.url).searchParams.get("live") === "1";
  return Response.json({ runs: await listRuns(project.id, { live }) });
});
