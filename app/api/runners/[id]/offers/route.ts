import { offerPrompt } from "@/lib/runners/offers";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

/** Offers a prompt waiting for a runner to this one runner (`{ promptId }`). */
export const POST = handle(async (req: Request, { params }: Ctx) => {
  const actor = await requireActor(req);
  return Response.json({ offer: await offerPrompt(actor, (await params).id, await readJson(req)) }, { status: 201 });
});
