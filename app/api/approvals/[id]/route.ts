import { decideApproval, type DecisionInput } from "@/lib/approvals/decide";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const POST = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = (await readJson(req)) as DecisionInput;
  return Response.json({ approval: await decideApproval(actor, (await params).id, input) });
});
