import { listCredentials, setCredential } from "@/lib/credentials/credentials";
import type { CredentialInput } from "@/lib/credentials/schema";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ credentials: await listCredentials(await requireActor(req)) }));

export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  return Response.json({ credential: await setCredential(actor, (await readJson(req)) as CredentialInput) }, { status: 201 });
});
