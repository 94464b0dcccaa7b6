import { pollForTrigger, pollQuery } from "@/lib/runners/poll";
import { handle } from "@/app/api/_lib/handler";
import { requireRunnerAgent } from "@/app/api/_lib/runner";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Held open until a trigger is claimed for the agent, or `{ trigger: null }` after `wait` seconds. */
export const GET = handle(async (req) => {
  const { caller, agent } = await requireRunnerAgent(req);
  const { wait } = pollQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  return Response.json(await pollForTrigger(caller, agent, wait, req.signal));
});
