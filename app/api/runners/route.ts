import { listRunners } from "@/lib/runners/list";
import { handle, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ runners: await listRunners(await requireActor(req)) }));
