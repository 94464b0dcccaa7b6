import { z } from "zod";
import { listAudit } from "@/lib/audit/list";
import { handle, requireActor } from "@/app/api/_lib/handler";

const query = z.object({
  before: z.string().regex(/^\d+$/, "must be an event id").optional(),
  limit: z.coerce.number().int().min(1, "must be from 1 to 200").max(200, "must be from 1 to 200").optional(),
});

export const GET = handle(async (req) => {
  const actor = await requireActor(req);
  const q = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  return Response.json(await listAudit(actor, q));
});
