import { z } from "zod";
import { requireProject } from "@/lib/auth/actor";
import { changeLoopMode, forceTick, setBranchContext, setLoopEnabled, setParallel } from "@/lib/loop/controls";
import { getLoopView } from "@/lib/projects/queries";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

const body = z.discriminatedUnion("action", [
  z.object({ action: z.enum(["start", "stop", "pause", "resume"]) }),
  z.object({ action: z.literal("tick") }),
  z.object({ action: z.literal("loop"), enabled: z.boolean() }),
  z.object({ action: z.literal("parallel"), enabled: z.boolean() }),
  z.object({ action: z.literal("branch"), branch: z.string() }),
]);

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const project = await requireProject(await requireActor(req), (await params).id);
  const { state, settings } = await getLoopView(project.id);
  return Response.json({
    mode: state.mode, parallelEnabled: settings.parallelEnabled, maxParallel: settings.maxParallel,
    lastStatus: state.lastStatus, tickCount: state.tickCount, lastTickAt: state.lastTickAt,
    planner: { unproductiveSpawns: state.emergentSpawnCount, lastSpawnAt: state.plannerLastSpawnAt },
    activeBranch: project.activeBranch, planningKey: project.planningKey,
  });
});

export const POST = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = body.parse(await readJson(req));
  const project = await requireProject(actor, (await params).id, "operator");
  switch (input.action) {
    case "tick":
      await forceTick(project);
      return Response.json({ ok: true }, { status: 202 });
    case "loop":
      return Response.json({ mode: await setLoopEnabled(project, input.enabled, actor) });
    case "parallel":
      await setParallel(project, input.enabled, actor);
      return Response.json({ parallelEnabled: input.enabled });
    case "branch":
      return Response.json({ planningKey: await setBranchContext(project, input.branch, actor) });
    default:
      return Response.json({ mode: await changeLoopMode(project, input.action, actor) });
  }
});
