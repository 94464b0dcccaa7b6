import { listMembers } from "@/lib/teams/members";
import { handle, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ members: await listMembers(await requireActor(req)) }));
