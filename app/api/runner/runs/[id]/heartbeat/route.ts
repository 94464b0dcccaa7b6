import { heartbeatRun } from "@/lib/runners/runs";
import { handle, readJson } from "@/app/api/_lib/handler";
import { requireRunnerAgent } from "@/app/api/_lib/runner";

type Ctx = { params: Promise<{ id: string }> };

export const POST = handle(async (req: Request, { params }: Ctx) => {
  const { caller, agent } = await requireRunnerAgent(req);
  return Response.json(await heartbeatRun(caller, agent, (await params).id, await readJson(req)));
});
