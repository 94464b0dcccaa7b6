import { unmapSlackChannel } from "@/lib/slack/channels";
import { handle, requireActor } from "@/app/api/_lib/handler";

export const DELETE = handle(async (req, { params }: { params: Promise<{ channelId: string }> }) => {
  await unmapSlackChannel(await requireActor(req), (await params).channelId);
  return new Response(null, { status: 204 });
});
