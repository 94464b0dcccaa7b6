import { maxBodyBytes, receiveWebhook, tooLarge, type WebhookEndpoint } from "@/lib/webhooks/receive";
import { readTextCapped, TooLarge } from "@/app/api/_lib/body";

/** A webhook route's answer: the body read within its cap, then the intake the worker's listener shares. */
export async function answerWebhook(req: Request, endpoint: WebhookEndpoint): Promise<Response> {
  let raw: string;
  try {
    raw = await readTextCapped(req, maxBodyBytes(endpoint));
  } catch (err) {
    if (!(err instanceof TooLarge)) throw err;
    const answer = tooLarge(endpoint);
    return Response.json(answer.body, { status: answer.status });
  }
  const answer = await receiveWebhook(endpoint, req.headers, raw);
  return Response.json(answer.body, { status: answer.status });
}
