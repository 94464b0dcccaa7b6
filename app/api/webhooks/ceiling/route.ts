import { getEnv } from "@/lib/env";
import { apiError, handle } from "@/app/api/_lib/handler";
import { readTextCapped } from "@/app/api/_lib/body";

// The framework's own ceiling for webhook intake, which `bench:webhooks` measures beside the
// real route: the same handler wrapper and capped body read, then 202. Stores and trusts nothing,
// and exists only where the bench turned it on (BENCH_ROUTES=on): elsewhere it is not found.
export const POST = handle(async (req) => {
  if (getEnv().BENCH_ROUTES !== "on") return apiError(404, "not_found", "not found");
  await readTextCapped(req, 25 * 1024 * 1024).catch(() => "");
  return Response.json({ accepted: true }, { status: 202 });
});
