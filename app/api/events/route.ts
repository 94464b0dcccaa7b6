import { z } from "zod";
import { isActorCurrent, requireProject } from "@/lib/auth/actor";
import { teamFeedResponse } from "@/lib/events/team-feed";
import { streamIdFrom } from "@/lib/events/resume";
import { handle, requireActor } from "@/app/api/_lib/handler";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const query = z.object({ projectId: z.string().min(1).optional() });

/** The caller's team events as SSE, optionally one project's; resumes from Last-Event-ID. */
export const GET = handle(async (req: Request) => {
  const actor = await requireActor(req);
  const { projectId } = query.parse({ projectId: new URL(req.url).searchParams.get("projectId") ?? undefined });
  const afterId = streamIdFrom(req);
  if (projectId) await requireProject(actor, projectId);
  const since = new Date();
  return teamFeedResponse({
    teamId: actor.teamId, projectId: projectId ?? actor.projectId, afterId, signal: req.signal,
    stillAllowed: () => isActorCurrent(actor, since),
  });
});
