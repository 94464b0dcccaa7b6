import { revokeApiToken } from "@/lib/auth/api-tokens";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const DELETE = handle(async (req, { params }: Ctx) =>
  Response.json({ apiToken: await revokeApiToken(await requireActor(req), (await params).id) }));
