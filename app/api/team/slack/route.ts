import { connectSlack, disconnectSlack, getSlackConnection } from "@/lib/slack/connection";
import type { SlackConnectionInput } from "@/lib/slack/schema";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ connection: await getSlackConnection(await requireActor(req)) }));

export const PUT = handle(async (req) => {
  const actor = await requireActor(req);
  return Response.json({ connection: await connectSlack(actor, (await readJson(req)) as SlackConnectionInput) });
});

export const DELETE = handle(async (req) => {
  await disconnectSlack(await requireActor(req));
  return new Response(null, { status: 204 });
});
