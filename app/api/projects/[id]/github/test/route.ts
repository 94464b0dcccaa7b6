import { checkConnection } from "@/lib/github/connection-check";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

// POST: it asks GitHub now (not a cacheable read), though it changes nothing.
export const POST = handle(async (req, { params }: Ctx) => {
  return Response.json(await checkConnection(await requireActor(req), (await params).id));
});
