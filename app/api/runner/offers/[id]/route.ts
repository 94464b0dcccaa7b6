import { answerOffer } from "@/lib/runners/offers";
import { handle, readJson } from "@/app/api/_lib/handler";
import { requireRunnerAgent } from "@/app/api/_lib/runner";

type Ctx = { params: Promise<{ id: string }> };

/** `{ accept: true }` or `{ accept: false, reason }`. */
export const POST = handle(async (req: Request, { params }: Ctx) => {
  const { agent } = await requireRunnerAgent(req);
  return Response.json({ offer: await answerOffer(agent, (await params).id, await readJson(req)) });
});
