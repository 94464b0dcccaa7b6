import { z } from "zod";
import { requireProject } from "@/lib/auth/actor";
import { listActivity } from "@/lib/activity/queries";
import { idCursor } from "@/lib/validation/cursor";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

const query = z.object({
  type: z.string().max(40).optional(),
  before: idCursor.optional(),
});

export const GET = handle(async (req, { params }: Ctx) => {
  const project = await requireProject(await requireActor(req), (await params).id);
  const q = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  const events = await listActivity(project.id, { type: q.type, before: q.before ? BigInt(q.before) : undefined });
  return Response.json({ events });
});
