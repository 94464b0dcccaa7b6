import { handle } from "@/app/api/_lib/handler";
import { answerWebhook } from "@/app/api/_lib/webhook";

// No session or token: the signature is the authentication (checked before anything is stored).
export const POST = handle(async (req, { params }: { params: Promise<{ connectionId: string }> }) =>
  answerWebhook(req, { provider: "slack", connectionId: (await params).connectionId }));
