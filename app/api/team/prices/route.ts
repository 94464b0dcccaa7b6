import { getTeamPrices, setTeamPrices } from "@/lib/budgets/prices";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ prices: await getTeamPrices(await requireActor(req)) }));

export const PUT = handle(async (req) => {
  const actor = await requireActor(req);
  return Response.json({ prices: await setTeamPrices(actor, await readJson(req)) });
});
