import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/env";
import { publishOutboxBatched } from "@/lib/queues";
import { freshRepoTargets, repoTargets, type RepoTarget } from "@/lib/github/webhook-secrets";
import { deliverySubject, storeDelivery } from "@/lib/github/delivery-store";

export const HANDLED_EVENTS = new Set([
  "pull_request", "pull_request_review", "pull_request_review_comment", "issue_comment", "issues",
  "check_suite", "check_run", "status", "push",
]);

export type IntakeAnswer = { status: 200 | 202 | 400 | 401; body: Record<string, unknown> };

const refused = (message: string): IntakeAnswer => ({ status: 401, body: { error: { code: "unauthenticated", message } } });

export function signatureMatches(secret: string, raw: string, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function parse(raw: string): ({ repository?: { full_name?: string }; action?: string } & Parameters<typeof deliverySubject>[1]) | null {
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

async function matchingTarget(fullName: string, raw: string, signature: string): Promise<RepoTarget | undefined> {
  const matching = (targets: RepoTarget[]) => targets.find((t) => t.secret && signatureMatches(t.secret, raw, signature));
  const cached = matching(await repoTargets(fullName));
  if (cached) return cached;
  const fresh = freshRepoTargets(fullName);
  return fresh ? matching(await fresh) : undefined;
}

/**
 * Invariant 6: a delivery is verified before anything is stored (a forgery leaves no trace),
 * stored once per delivery id (a redelivery is answered 200 and not processed again), and
 * handed to the github queue; GitHub gets its answer in milliseconds.
 */
export async function receiveGithubDelivery(headers: Pick<Headers, "get">, raw: string): Promise<IntakeAnswer> {
  const signature = headers.get("x-hub-signature-256");
  if (!signature) return refused("missing X-Hub-Signature-256");
  const payload = parse(raw);
  const fullName = payload?.repository?.full_name;
  const target = fullName ? await matchingTarget(fullName, raw, signature) : undefined;
  const envSecret = getEnv().GITHUB_WEBHOOK_SECRET;
  const verified = Boolean(target) || (envSecret ? signatureMatches(envSecret, raw, signature) : false);
  if (!verified) return refused("signature does not match");

  const deliveryId = headers.get("x-github-delivery")?.slice(0, 100);
  const event = headers.get("x-github-event");
  if (!payload || !deliveryId || !event) {
    return { status: 400, body: { error: { code: "invalid", message: "needs a JSON body and X-GitHub-Delivery and X-GitHub-Event headers" } } };
  }
  const handled = Boolean(target) && HANDLED_EVENTS.has(event);
  const stored = await storeDelivery({
    deliveryId, event: event.slice(0, 100),
    action: typeof payload.action === "string" ? payload.action.slice(0, 100) : null,
    projectId: target?.projectId ?? null, status: handled ? "received" : "ignored",
    // An ignored delivery is kept for the record (and deduplication), not its content.
    payload: handled ? raw : "{}",
    subject: deliverySubject(event, payload),
  });
  if (!stored) return { status: 200, body: { duplicate: true } };
  if (!handled || !stored.outboxId) return { status: 200, body: { ignored: true } };
  // Never throws: with Redis away the work order waits in the outbox for the relay.
  await publishOutboxBatched({ id: stored.outboxId, message: { kind: "github", deliveryId } });
  return { status: 202, body: { accepted: true } };
}
