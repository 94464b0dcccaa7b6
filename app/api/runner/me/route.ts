import { agentInbox, agentView } from "@/lib/runners/agents";
import { handle } from "@/app/api/_lib/handler";
import { requireRunnerAgent } from "@/app/api/_lib/runner";

export const GET = handle(async (req) => {
  const { agent } = await requireRunnerAgent(req);
  return Response.json({ agent: agentView(agent), inbox: await agentInbox(agent) });
});
