import { deleteCredential } from "@/lib/credentials/credentials";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ name: string }> };

export const DELETE = handle(async (req, { params }: Ctx) => {
  await deleteCredential(await requireActor(req), (await params).name);
  return new Response(null, { status: 204 });
});
