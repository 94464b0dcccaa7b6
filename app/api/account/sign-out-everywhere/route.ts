import { signOutEverywhere } from "@/lib/auth/sessions";
import { handle, requireActor } from "@/app/api/_lib/handler";

export const POST = handle(async (req) => {
  await signOutEverywhere(await requireActor(req));
  return new Response(null, { status: 204 });
});
