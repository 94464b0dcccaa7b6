import { closeAgent } from "@/lib/runners/agents";
import { handle } from "@/app/api/_lib/handler";
import { requireRunnerAgent } from "@/app/api/_lib/runner";

export const POST = handle(async (req) => {
  const { agent } = await requireRunnerAgent(req);
  return Response.json({ agent: await closeAgent(agent) });
});
