import { createHmac, timingSafeEqual } from "node:crypto";

/** Slack refuses requests older than this too: a captured request cannot be replayed later. */
export const SLACK_WINDOW_S = 5 * 60;

/** Slack's v0 signature of a request body sent at `timestamp` (seconds). */
export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

export type SignatureProblem = "missing" | "stale" | "mismatch";

/**
 * Why a request is not Slack's (null when it is): headers missing, a timestamp outside the
 * five-minute window either way, or a signature no secret produces. Compared in constant time.
 */
export function signatureProblem(secrets: string[], timestamp: string | null, signature: string | null, body: string, nowMs = Date.now()): SignatureProblem | null {
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return "missing";
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_WINDOW_S) return "stale";
  const given = Buffer.from(signature);
  const ok = secrets.some((secret) => {
    const expected = Buffer.from(slackSignature(secret, timestamp, body));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  return ok ? null : "mismatch";
}
