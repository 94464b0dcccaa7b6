import { z } from "zod";
import { listApprovals } from "@/lib/approvals/list";
import { handle, requireActor } from "@/app/api/_lib/handler";

const query = z.object({
  status: z.enum(["pending", "approved", "rejected"], { error: "must be pending, approved or rejected" }).optional(),
  projectId: z.string().max(200).optional(),
  kind: z.enum(["prompt_run", "pr_merge", "fix_cycle_cap"], { error: "must be prompt_run, pr_merge or fix_cycle_cap" }).optional(),
});

export const GET = handle(async (req) => {
  const actor = await requireActor(req);
  const q = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  return Response.json({ approvals: await listApprovals(actor, q) });
});
