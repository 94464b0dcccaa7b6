import { createHmac } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { encryptSecret } from "@/lib/crypto/secrets";
import { receiveGithubDelivery, signatureMatches } from "@/lib/github/intake";
import { forgetRepoTargets, freshRepoTargets } from "@/lib/github/webhook-secrets";
import { processDelivery } from "@/lib/github/deliveries";
import { getQueue, publishOutboxBatched, sentOrdersDeleted } from "@/lib/queues";
import { createBareProject, queuedJobs } from "./helpers/runs";
import { ENV_WEBHOOK_SECRET, useGithubTestEnv } from "./helpers/github-env";

useGithubTestEnv();
const ENV_SECRET = ENV_WEBHOOK_SECRET;
const OWN_SECRET = "per-connection-webhook-secret-1";

const sign = (secret: string, raw: string) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
let n = 0;

/** A GitHub project for a fresh repository, with its own webhook secret unless told otherwise. */
async function githubProject(secret: string | null = OWN_SECRET) {
  const { team, project } = await createBareProject();
  const repo = `widgets-${Math.random().toString(36).slice(2, 8)}`;
  const connection = await getDb().githubConnection.create({
    data: { teamId: team.id, name: "acme", kind: "pat", encryptedWebhookSecret: secret ? encryptSecret(secret) : null, botLogin: "ringmaster-bot" },
  });
  const updated = await getDb().project.update({
    where: { id: project.id }, data: { repoKind: "github", githubOwner: "acme", githubRepo: repo, githubConnectionId: connection.id },
  });
  return { team, project: updated, fullName: `acme/${repo}` };
}

function delivery(event: string | null, body: unknown, secret: string | null, id: string | null = `intake-${++n}`) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const headers = new Headers();
  if (event) headers.set("x-github-event", event);
  if (id) headers.set("x-github-delivery", id);
  if (secret) headers.set("x-hub-signature-256", sign(secret, raw));
  return { headers, raw, id: id! };
}

const rowOf = (deliveryId: string) => getDb().webhookDelivery.findUnique({ where: { provider_deliveryId: { provider: "github", deliveryId } } });
const refused = (message: string) => ({ status: 401, body: { error: { code: "unauthenticated", message } } });

beforeEach(async () => {
  forgetRepoTargets();
  await getDb().webhookDelivery.deleteMany();
  await getQueue("github").obliterate({ force: true });
});

describe("the webhook signature check", () => {
  it("accepts exactly the HMAC-SHA256 of the raw body with the secret, in GitHub's header format", () => {
    const raw = '{"zen":"Keep it logically awesome."}';
    expect(signatureMatches("s3cret", raw, sign("s3cret", raw))).toBe(true);
    expect(signatureMatches("s3cret", raw, sign("other", raw))).toBe(false);
    expect(signatureMatches("s3cret", `${raw} `, sign("s3cret", raw))).toBe(false);
    expect(signatureMatches("s3cret", raw, sign("s3cret", raw).replace("sha256=", "sha1=xx"))).toBe(false);
    expect(signatureMatches("s3cret", raw, sign("s3cret", raw).slice(0, -1))).toBe(false);
    expect(signatureMatches("s3cret", raw, `${sign("s3cret", raw)}0`)).toBe(false);
    expect(signatureMatches("s3cret", raw, "")).toBe(false);
  });
});

describe("webhook intake (invariant 6)", () => {
  it("stores a delivery verified with the project's own secret and queues it", async () => {
    const { project, fullName } = await githubProject();
    const d = delivery("pull_request", { action: "opened", repository: { full_name: fullName }, number: 3 }, OWN_SECRET);
    expect(await receiveGithubDelivery(d.headers, d.raw)).toEqual({ status: 202, body: { accepted: true } });
    expect(await rowOf(d.id)).toMatchObject({ event: "pull_request", action: "opened", projectId: project.id, status: "received", payload: d.raw });
    expect(await queuedJobs("github")).toContainEqual([`gh-${d.id}`, { deliveryId: d.id }]);
  });

  it("finds the project whatever the case of the repository name", async () => {
    const { project, fullName } = await githubProject();
    const d = delivery("push", { repository: { full_name: fullName.toUpperCase() }, ref: "refs/heads/main" }, OWN_SECRET);
    expect((await receiveGithubDelivery(d.headers, d.raw)).status).toBe(202);
    expect(await rowOf(d.id)).toMatchObject({ projectId: project.id, action: null, status: "received" });
  });

  it("refuses an unsigned, forged or foreign-secret delivery with 401 and stores nothing", async () => {
    const { fullName } = await githubProject();
    const body = { action: "opened", repository: { full_name: fullName } };
    const unsigned = delivery("pull_request", body, null);
    expect(await receiveGithubDelivery(unsigned.headers, unsigned.raw)).toEqual(refused("missing X-Hub-Signature-256"));
    const forged = delivery("pull_request", body, "not-the-secret");
    expect(await receiveGithubDelivery(forged.headers, forged.raw)).toEqual(refused("signature does not match"));
    const unknownRepo = delivery("pull_request", { repository: { full_name: "acme/nowhere" } }, OWN_SECRET);
    expect(await receiveGithubDelivery(unknownRepo.headers, unknownRepo.raw)).toEqual(refused("signature does not match"));
    expect(await getDb().webhookDelivery.count()).toBe(0);
    expect(await queuedJobs("github")).toEqual([]);
  });

  it("reads a repository's secrets again after a mismatch at most once a second: a secret rotated within that second is refused", async () => {
    const { project, fullName } = await githubProject();
    const body = { action: "opened", repository: { full_name: fullName } };
    const first = delivery("pull_request", body, OWN_SECRET);
    expect((await receiveGithubDelivery(first.headers, first.raw)).status).toBe(202);
    const rotated = "rotated-webhook-secret-0002";
    await getDb().githubConnection.update({ where: { id: project.githubConnectionId! }, data: { encryptedWebhookSecret: encryptSecret(rotated) } });
    // A re-read (it finds the rotated secret) stamped an hour ahead: every mismatch until then falls within its second.
    await freshRepoTargets(fullName, Date.now() + 3_600_000);
    await getDb().githubConnection.update({ where: { id: project.githubConnectionId! }, data: { encryptedWebhookSecret: encryptSecret("rotated-again-0003") } });
    const held = delivery("pull_request", body, "rotated-again-0003");
    expect(await receiveGithubDelivery(held.headers, held.raw)).toEqual(refused("signature does not match"));
    expect(await rowOf(held.id)).toBeNull();
    const cached = delivery("pull_request", body, rotated);
    expect((await receiveGithubDelivery(cached.headers, cached.raw)).status).toBe(202);
  });

  it.each(["pull_request", "pull_request_review", "pull_request_review_comment", "issue_comment", "issues", "check_suite", "check_run", "status", "push"])(
    "stores and queues a %s delivery with its content", async (event) => {
      const { project, fullName } = await githubProject();
      const d = delivery(event, { action: "x", repository: { full_name: fullName } }, OWN_SECRET);
      expect(await receiveGithubDelivery(d.headers, d.raw)).toEqual({ status: 202, body: { accepted: true } });
      expect(await rowOf(d.id)).toMatchObject({ event, projectId: project.id, status: "received", payload: d.raw });
    },
  );

  it("verifies at once with a secret another process rotated since this one read it", async () => {
    const { project, fullName } = await githubProject();
    const body = { action: "opened", repository: { full_name: fullName } };
    const first = delivery("pull_request", body, OWN_SECRET);
    expect((await receiveGithubDelivery(first.headers, first.raw)).status).toBe(202);
    await getDb().githubConnection.update({ where: { id: project.githubConnectionId! }, data: { encryptedWebhookSecret: encryptSecret("rotated-webhook-secret-0009") } });
    const rotated = delivery("pull_request", body, "rotated-webhook-secret-0009");
    expect(await receiveGithubDelivery(rotated.headers, rotated.raw)).toEqual({ status: 202, body: { accepted: true } });
  });

  it("keeps an unhandled event's name cut to 100 characters", async () => {
    const { fullName } = await githubProject();
    const d = delivery("e".repeat(150), { repository: { full_name: fullName } }, OWN_SECRET);
    expect(await receiveGithubDelivery(d.headers, d.raw)).toEqual({ status: 200, body: { ignored: true } });
    expect(await rowOf(d.id)).toMatchObject({ event: "e".repeat(100), status: "ignored", payload: "{}" });
  });

  it("never attributes a delivery signed with the environment secret to a project that has its own", async () => {
    const { fullName } = await githubProject();
    const d = delivery("pull_request", { action: "opened", repository: { full_name: fullName } }, ENV_SECRET);
    expect(await receiveGithubDelivery(d.headers, d.raw)).toEqual({ status: 200, body: { ignored: true } });
    expect(await rowOf(d.id)).toMatchObject({ projectId: null, status: "ignored", payload: "{}" });
  });

  it("verifies with GITHUB_WEBHOOK_SECRET a project without a secret of its own", async () => {
    const { project, fullName } = await githubProject(null);
    const d = delivery("issue_comment", { action: "created", repository: { full_name: fullName } }, ENV_SECRET);
    expect((await receiveGithubDelivery(d.headers, d.raw)).status).toBe(202);
    expect(await rowOf(d.id)).toMatchObject({ projectId: project.id, status: "received" });
  });

  it("keeps a delivery signed with the environment secret but for no known project only as a record", async () => {
    const d = delivery("pull_request", { action: "opened", repository: { full_name: "acme/nowhere" }, secret: "data" }, ENV_SECRET);
    expect(await receiveGithubDelivery(d.headers, d.raw)).toEqual({ status: 200, body: { ignored: true } });
    expect(await rowOf(d.id)).toMatchObject({ projectId: null, status: "ignored", payload: "{}" });
    const noRepo = delivery("ping", { zen: "hi" }, ENV_SECRET);
    expect(await receiveGithubDelivery(noRepo.headers, noRepo.raw)).toEqual({ status: 200, body: { ignored: true } });
    expect(await queuedJobs("github")).toEqual([]);
  });

  it("records an event it does not handle without its content", async () => {
    const { project, fullName } = await githubProject();
    const d = delivery("star", { action: "created", repository: { full_name: fullName } }, OWN_SECRET);
    expect(await receiveGithubDelivery(d.headers, d.raw)).toEqual({ status: 200, body: { ignored: true } });
    expect(await rowOf(d.id)).toMatchObject({ projectId: project.id, event: "star", action: "created", status: "ignored", payload: "{}" });
  });

  it("answers a signed delivery without a JSON object, a delivery id or an event with 400", async () => {
    const { fullName } = await githubProject();
    const invalid = { status: 400, body: { error: { code: "invalid", message: "needs a JSON body and X-GitHub-Delivery and X-GitHub-Event headers" } } };
    for (const d of [
      delivery("push", "not json", ENV_SECRET), delivery("push", "null", ENV_SECRET), delivery("push", "42", ENV_SECRET),
      delivery("push", { repository: { full_name: fullName } }, OWN_SECRET, null), delivery(null, { repository: { full_name: fullName } }, OWN_SECRET),
    ]) {
      expect(await receiveGithubDelivery(d.headers, d.raw)).toEqual(invalid);
    }
    expect(await getDb().webhookDelivery.count()).toBe(0);
  });

  it("answers a redelivery 200 without storing or queuing it again, and cuts long header values", async () => {
    const { fullName } = await githubProject();
    const long = `${"d".repeat(100)}-tail`;
    const body = { action: `${"a".repeat(100)}-tail`, repository: { full_name: fullName } };
    const first = delivery("pull_request", body, OWN_SECRET, long);
    expect((await receiveGithubDelivery(first.headers, first.raw)).status).toBe(202);
    const again = delivery("pull_request", body, OWN_SECRET, long);
    expect(await receiveGithubDelivery(again.headers, again.raw)).toEqual({ status: 200, body: { duplicate: true } });
    const rows = await getDb().webhookDelivery.findMany();
    expect(rows.map((r) => [r.deliveryId, r.action])).toEqual([["d".repeat(100), "a".repeat(100)]]);
    expect(await processDelivery("d".repeat(100))).toBe("ignored");
  });

  it("makes one job of a work order the relay sends as well, and processes it once", async () => {
    const { fullName } = await githubProject();
    const d = delivery("pull_request", { action: "labeled", repository: { full_name: fullName } }, OWN_SECRET);
    expect((await receiveGithubDelivery(d.headers, d.raw)).status).toBe(202);
    // The fast path sends without claiming the order first: the relay may send it too.
    await publishOutboxBatched({ id: "987654321", message: { kind: "github", deliveryId: d.id } });
    expect(await queuedJobs("github")).toEqual([[`gh-${d.id}`, { deliveryId: d.id }]]);
    await sentOrdersDeleted();
    expect(await getDb().outbox.count()).toBe(0);
    expect(await processDelivery(d.id)).toBe("ignored");
    expect(await processDelivery(d.id)).toBeNull();
  });
});
