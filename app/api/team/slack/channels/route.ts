import { listSlackChannels, mapSlackChannel } from "@/lib/slack/channels";
import type { SlackChannelInput } from "@/lib/slack/schema";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

export const GET = handle(async (req) => Response.json({ channels: await listSlackChannels(await requireActor(req)) }));

export const PUT = handle(async (req) => {
  const actor = await requireActor(req);
  return Response.json({ channel: await mapSlackChannel(actor, (await readJson(req)) as SlackChannelInput) });
});
