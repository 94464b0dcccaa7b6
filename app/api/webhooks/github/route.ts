import { receiveGithubDelivery } from "@/lib/github/intake";
import { apiError, handle } from "@/app/api/_lib/handler";
import { readTextCapped, TooLarge } from "@/app/api/_lib/body";

// GitHub caps a delivery at 25 MB; anything larger is not GitHub.
const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;

// No session or token: the signature is the authentication (checked before anything is stored).
export const POST = handle(async (req) => {
  let raw: string;
  try {
    raw = await readTextCapped(req, MAX_DELIVERY_BYTES);
  } catch (err) {
    if (err instanceof TooLarge) return apiError(413, "too_large", "a delivery is at most 25 MB");
    throw err;
  }
  const answer = await receiveGithubDelivery(req.headers, raw);
  return Response.json(answer.body, { status: answer.status });
});
