import { receiveSlackEvent } from "@/lib/slack/intake";
import { apiError, handle } from "@/app/api/_lib/handler";
import { readTextCapped, TooLarge } from "@/app/api/_lib/body";

// Slack's events are a few kilobytes; a megabyte is far past any real one.
const MAX_EVENT_BYTES = 1024 * 1024;

// No session or token: the signature is the authentication (checked before anything is stored).
export const POST = handle(async (req, { params }: { params: Promise<{ connectionId: string }> }) => {
  let raw: string;
  try {
    raw = await readTextCapped(req, MAX_EVENT_BYTES);
  } catch (err) {
    if (err instanceof TooLarge) return apiError(413, "too_large", "an event is at most 1 MB");
    throw err;
  }
  const answer = await receiveSlackEvent((await params).connectionId, req.headers, raw);
  return Response.json(answer.body, { status: answer.status });
});
