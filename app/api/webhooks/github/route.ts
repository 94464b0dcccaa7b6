import { handle } from "@/app/api/_lib/handler";
import { answerWebhook } from "@/app/api/_lib/webhook";

// No session or token: the signature is the authentication (checked before anything is stored).
export const POST = handle((req) => answerWebhook(req, { provider: "github" }));
