import { getTeamBudget, setTeamBudget } from "@/lib/budgets/team";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ budget: await getTeamBudget((await requireActor(req)).teamId) }));

export const PATCH = handle(async (req) => {
  const actor = await requireActor(req);
  return Response.json({ budget: await setTeamBudget(actor, await readJson(req)) });
});
