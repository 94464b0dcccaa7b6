import { testSlackConnection } from "@/lib/slack/connection";
import { handle, requireActor } from "@/app/api/_lib/handler";

export const POST = handle(async (req) => Response.json(await testSlackConnection(await requireActor(req))));
