import { isActorCurrent } from "@/lib/auth/actor";
import { requireVisibleRun } from "@/lib/auth/objects";
import { runLogFeedResponse } from "@/lib/events/run-log-feed";
import { seqFrom } from "@/lib/events/resume";
import { handle, requireActor } from "@/app/api/_lib/handler";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Ctx = { params: Promise<{ id: string }> };

/** A run's output as SSE: the stored log, the live tail, then `end`; resumes by seq. */
export const GET = handle(async (req: Request, { params }: Ctx) => {
  const actor = await requireActor(req);
  const afterSeq = seqFrom(req);
  const run = await requireVisibleRun(actor, (await params).id);
  const since = new Date();
  return runLogFeedResponse({ run, afterSeq, signal: req.signal, stillAllowed: () => isActorCurrent(actor, since) });
});
