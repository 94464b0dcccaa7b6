import { requireProject } from "@/lib/auth/actor";
import { overrideBudgetAs } from "@/lib/loop/budget";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

/** An owner lifts the project's or the team's budget for the rest of the day or month. */
export const POST = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = await readJson(req);
  const project = await requireProject(actor, (await params).id, "owner");
  return Response.json(await overrideBudgetAs(actor, project, input));
});
