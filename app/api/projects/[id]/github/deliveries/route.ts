import { listDeliveries } from "@/lib/github/connection-check";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  return Response.json({ deliveries: await listDeliveries(await requireActor(req), (await params).id) });
});
