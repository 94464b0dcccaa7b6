import { listPolicies } from "@/lib/approvals/policy";
import { handle, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ policies: await listPolicies(await requireActor(req)) }));
