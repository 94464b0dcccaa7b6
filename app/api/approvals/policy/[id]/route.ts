import { setApprovalPolicy, type PolicyInput } from "@/lib/approvals/policy";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = (await readJson(req)) as PolicyInput;
  return Response.json({ policy: await setApprovalPolicy(actor, (await params).id, input) });
});
