import { createApiToken, listApiTokens, type TokenInput } from "@/lib/auth/api-tokens";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ tokens: await listApiTokens(await requireActor(req)) }));

export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  return Response.json(await createApiToken(actor, (await readJson(req)) as TokenInput), { status: 201 });
});
