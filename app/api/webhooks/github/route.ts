import { receiveGithubDelivery } from "@/lib/github/intake";
import { apiError, handle } from "@/app/api/_lib/handler";

// GitHub caps a delivery at 25 MB; anything larger is not GitHub.
const MAX_BYTES = 25 * 1024 * 1024;

// No session or token: the signature is the authentication (checked before anything is stored).
export const POST = handle(async (req) => {
  if (Number(req.headers.get("content-length") ?? 0) > MAX_BYTES) return apiError(413, "too_large", "a delivery is at most 25 MB");
  const answer = await receiveGithubDelivery(req.headers, await req.text());
  return Response.json(answer.body, { status: answer.status });
});
