import { registerAgent, requireAgentId } from "@/lib/runners/agents";
import { handle, readJson } from "@/app/api/_lib/handler";
import { requireRunner } from "@/app/api/_lib/runner";

/** Registers the runner's agent: 201, or 409 with the agent already registered under that id. */
export const POST = handle(async (req) => {
  const caller = await requireRunner(req);
  const id = requireAgentId(req.headers.get("x-agent-id"));
  const { created, agent } = await registerAgent(caller, id, await readJson(req));
  return Response.json({ agent }, { status: created ? 201 : 409 });
});
