import { z } from "zod";
import { listAudit } from "@/lib/audit/list";
import { AUDIT_AREAS } from "@/lib/audit/sentence";
import { idCursor } from "@/lib/validation/cursor";
import { wholeNumber } from "@/lib/validation/numbers";
import { handle, requireActor } from "@/app/api/_lib/handler";

const query = z.object({
  before: idCursor.optional(),
  limit: wholeNumber(1, 200).optional(),
  area: z.enum(AUDIT_AREAS, { error: `must be one of ${AUDIT_AREAS.join(", ")}` }).optional(),
});

export const GET = handle(async (req) => {
  const actor = await requireActor(req);
  const q = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  return Response.json(await listAudit(actor, q));
});
