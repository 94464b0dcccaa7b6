import { handle } from "@/app/api/_lib/handler";
import { readTextCapped } from "@/app/api/_lib/body";

// The framework's own ceiling for webhook intake, which `bench:webhooks` measures beside the
// real route: the same handler wrapper and capped body read, then 202. Stores and trusts nothing.
export const POST = handle(async (req) => {
  await readTextCapped(req, 25 * 1024 * 1024).catch(() => "");
  return Response.json({ accepted: true }, { status: 202 });
});
