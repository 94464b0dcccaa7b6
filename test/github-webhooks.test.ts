import { generateKeyPairSync } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getQueue, sentOrdersDeleted } from "@/lib/queues";
import { processDelivery } from "@/lib/github/deliveries";
import { GET as getConnection, PUT as putConnection } from "@/app/api/projects/[id]/github/route";
import { createGithubProject, deliver, ENV_WEBHOOK_SECRET, example, PAT, startGithubDouble, WEBHOOK_SECRET } from "./helpers/github-fixtures";
import { params, request } from "./helpers/api";

const double = await startGithubDouble();
afterAll(() => double.stop());

const rows = (deliveryId: string) => getDb().webhookDelivery.findMany({ where: { deliveryId } });

describe("GitHub connection", () => {
  it("stores the token and webhook secret encrypted and never shows them", async () => {
    const { project, token, connection } = await createGithubProject(double);
    expect(connection).toMatchObject({ kind: "pat", botLogin: "ringmaster-bot", hasWebhookSecret: true });
    expect(JSON.stringify(connection)).not.toContain(PAT);
    const shown = await (await getConnection(request("GET", `/api/projects/${project.id}/github`, token), params(project.id))).text();
    expect(shown).not.toContain(PAT);
    expect(shown).not.toContain(WEBHOOK_SECRET);
    const row = await getDb().githubConnection.findUniqueOrThrow({ where: { id: connection.id } });
    expect(row.encryptedToken).toMatch(/^v1\./);
    expect(row.encryptedToken).not.toContain(PAT);
    expect(row.encryptedWebhookSecret).not.toContain(WEBHOOK_SECRET);
    // The audit log says who connected what, and holds no secret either.
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { action: "github.connected", targetId: project.id } });
    expect(audit).toMatchObject({ actorType: "token", after: { kind: "pat", botLogin: "ringmaster-bot" } });
    const logged = JSON.stringify({ ...audit, id: audit.id.toString() });
    expect(logged).not.toContain(PAT);
    expect(logged).not.toContain(WEBHOOK_SECRET);
    // GitHub was asked who we are (to ignore our own comments) and whether the repository is reachable.
    const asked = double.requests.filter((r) => r.authorization === `token ${PAT}`).map((r) => `${r.method} ${r.path}`);
    expect(asked).toEqual(expect.arrayContaining(["GET /user", `GET /repos/${project.githubOwner}/${project.githubRepo}`]));
  });
});

describe("GitHub App connection", () => {
  it("signs in as the app, uses installation tokens for the API, and knows its bot login", async () => {
    const { project, token } = await createGithubProject(double);
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
    const res = await putConnection(request("PUT", `/api/projects/${project.id}/github`, token, { kind: "app", appId: "42", installationId: "777", privateKey }), params(project.id));
    expect(res.status).toBe(201);
    const view = await res.json();
    expect(view).toMatchObject({ kind: "app", appId: "42", installationId: "777", botLogin: "ringmaster-test[bot]" });
    expect(JSON.stringify(view)).not.toContain("PRIVATE KEY");
    const row = await getDb().githubConnection.findUniqueOrThrow({ where: { id: view.id } });
    expect(row.encryptedPrivateKey).not.toContain("PRIVATE KEY");
    // The app's JWT asked for an installation token, which then carried the repository call.
    expect(double.requests.some((r) => r.method === "GET" && r.path === "/app" && r.authorization?.startsWith("bearer "))).toBe(true);
    expect(double.requests.some((r) => r.method === "POST" && r.path === "/app/installations/777/access_tokens")).toBe(true);
    const repoCalls = double.requests.filter((r) => r.path === `/repos/${project.githubOwner}/${project.githubRepo}`);
    expect(repoCalls.at(-1)!.authorization).toBe("token ghs_installation777token");
    const { requireClient, gitToken } = await import("@/lib/github/client");
    expect(await gitToken((await requireClient(view.id)).client)).toBe("ghs_installation777token");
  });
});

describe("webhook intake (invariant 6)", () => {
  it("refuses a forged or unsigned delivery with 401 and leaves no trace", async () => {
    const { fullName } = await createGithubProject(double);
    const payload = example("pull_request", "opened", fullName);
    const forged = await deliver("pull_request", payload, "not-the-secret-at-all");
    expect(forged.status).toBe(401);
    const unsigned = await deliver("pull_request", payload, null);
    expect(unsigned.status).toBe(401);
    // A valid signature over a different body does not carry over to a tampered one.
    const good = await deliver("pull_request", payload);
    const tampered = await deliver("pull_request", { ...payload, action: "closed" }, null, "tampered-1");
    expect(good.status).toBe(202);
    expect(tampered.status).toBe(401);
    expect(await rows(forged.deliveryId)).toHaveLength(0);
    expect(await rows(unsigned.deliveryId)).toHaveLength(0);
    expect(await rows("tampered-1")).toHaveLength(0);
  });

  it("accepts a delivery once: a replay is answered 200 and not queued or processed again", async () => {
    const { fullName, project } = await createGithubProject(double);
    const payload = example("issue_comment", "created", fullName);
    const first = await deliver("issue_comment", payload, WEBHOOK_SECRET, `replay-${project.id}`);
    const again = await deliver("issue_comment", payload, WEBHOOK_SECRET, `replay-${project.id}`);
    expect([first.status, again.status]).toEqual([202, 200]);
    expect(again.body).toEqual({ duplicate: true });
    const [row] = await rows(`replay-${project.id}`);
    expect(row).toMatchObject({ provider: "github", event: "issue_comment", action: "created", projectId: project.id, status: "received" });
    const jobs = await getQueue("github").getJobs(["waiting", "delayed", "prioritized", "active", "completed"]);
    expect(jobs.filter((j) => "deliveryId" in j.data && j.data.deliveryId === `replay-${project.id}`)).toHaveLength(1);
    expect(await processDelivery(`replay-${project.id}`)).toBe("ignored");
    expect(await processDelivery(`replay-${project.id}`)).toBeNull();
  });

  it("stores concurrent copies of one delivery once (they may share one batched write)", async () => {
    const { fullName, project } = await createGithubProject(double);
    const payload = example("pull_request", "synchronize", fullName);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver("pull_request", payload, WEBHOOK_SECRET, `burst-${project.id}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 202]);
    expect(await rows(`burst-${project.id}`)).toHaveLength(1);
    // Different deliveries in the same burst are each stored.
    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => deliver("pull_request", payload, WEBHOOK_SECRET, `many-${project.id}-${i}`)));
    expect(many.every((a) => a.status === 202)).toBe(true);
    expect(await getDb().webhookDelivery.count({ where: { deliveryId: { startsWith: `many-${project.id}-` } } })).toBe(20);
    // Each is in exactly one job (deliveries published together share one), and the batched
    // publishes left no work order behind for the relay.
    const jobs = await getQueue("github").getJobs(["waiting", "delayed", "prioritized", "active", "completed"]);
    const queued = jobs.flatMap((j) => ("deliveryIds" in j.data ? j.data.deliveryIds : "deliveryId" in j.data ? [j.data.deliveryId] : []));
    expect(queued.filter((id) => id.startsWith(`many-${project.id}-`)).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `many-${project.id}-${i}`).sort());
    await sentOrdersDeleted();
    const orders = await getDb().outbox.findMany({ where: { kind: "github" } });
    expect(orders.filter((o) => String((o.payload as { deliveryId: string }).deliveryId).startsWith(`many-${project.id}-`))).toEqual([]);
  });

  it("verifies with a secret rotated by another process at once, and no longer with the old one", async () => {
    const { fullName, connection } = await createGithubProject(double);
    const payload = example("issue_comment", "created", fullName);
    expect((await deliver("issue_comment", payload, WEBHOOK_SECRET)).status).toBe(202);
    // Another web process changed the secret: this one's cache still holds the old one.
    const { encryptSecret } = await import("@/lib/crypto/secrets");
    const rotated = "rotated-webhook-secret-0002";
    await getDb().githubConnection.update({ where: { id: connection.id }, data: { encryptedWebhookSecret: encryptSecret(rotated) } });
    const fresh = await deliver("issue_comment", payload, rotated);
    expect(fresh.status).toBe(202);
    expect((await rows(fresh.deliveryId))).toHaveLength(1);
    const stale = await deliver("issue_comment", payload, WEBHOOK_SECRET);
    expect(stale.status).toBe(401);
    expect(await rows(stale.deliveryId)).toHaveLength(0);
  });

  it("verifies with GITHUB_WEBHOOK_SECRET when the connection has no secret of its own", async () => {
    const { fullName, project } = await createGithubProject(double, { webhookSecret: null });
    const ok = await deliver("pull_request", example("pull_request", "opened", fullName), ENV_WEBHOOK_SECRET);
    expect(ok.status).toBe(202);
    expect((await rows(ok.deliveryId))[0].projectId).toBe(project.id);
    expect((await deliver("pull_request", example("pull_request", "opened", fullName), WEBHOOK_SECRET)).status).toBe(401);
  });

  it("acknowledges unknown events and ignores them", async () => {
    const { fullName } = await createGithubProject(double);
    const star = await deliver("star", { action: "created", repository: { full_name: fullName }, starred_at: null });
    expect(star.status).toBe(200);
    expect(star.body).toEqual({ ignored: true });
    const ping = await deliver("ping", example("ping", undefined, fullName));
    expect(ping.status).toBe(200);
    const [row] = await rows(star.deliveryId);
    expect(row.status).toBe("ignored");
    expect(row.payload).toBe("{}");
  });
});

describe("webhook intake under hostile input", () => {
  it("stores and processes a signed delivery whose JSON carries \\u0000 and an unpaired surrogate", async () => {
    const { fullName, project } = await createGithubProject(double);
    const payload = example("issue_comment", "created", fullName, (p) => { p.comment.body = "nul:\u0000 lone:\ud800 end"; });
    const sent = await deliver("issue_comment", payload);
    expect(sent.raw).toContain("\\u0000");
    expect(sent.status).toBe(202);
    const [row] = await rows(sent.deliveryId);
    expect(row).toMatchObject({ projectId: project.id, status: "received" });
    expect(await processDelivery(sent.deliveryId)).toBe("ignored");
    const { storedPayload } = await import("@/lib/github/delivery-store");
    const stored = storedPayload((await rows(sent.deliveryId))[0].payload) as typeof payload;
    expect(stored.comment.body).toBe("nul:\u0000 lone:\ud800 end");
    expect((await rows(sent.deliveryId))[0].status).toBe("ignored");
  });

  it("keeps a delivery's JSON as GitHub sent it, lz4-compressed, with what it is about", async () => {
    const { fullName } = await createGithubProject(double);
    const review = example("pull_request_review", "submitted", fullName, (p) => { p.pull_request.number = 41; p.review.body = "x".repeat(20_000); });
    const sent = await deliver("pull_request_review", review);
    expect(sent.status).toBe(202);
    const { getPool } = await import("@/lib/db");
    const { rows: [stored] } = await getPool().query(
      `SELECT "payload"::text AS raw, pg_typeof("payload")::text AS type, pg_column_compression("payload") AS compression, "subject" FROM "WebhookDelivery" WHERE "deliveryId" = $1`,
      [sent.deliveryId],
    );
    // Byte for byte (text: nothing re-serialized, no escape refused, no second parse), compressed cheaply.
    expect(stored).toEqual({ raw: sent.raw, type: "text", compression: "lz4", subject: "#41" });
  });

  it("cuts a chunked body off at the size cap while reading, without buffering the rest", async () => {
    const { POST } = await import("@/app/api/webhooks/github/route");
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let pulled = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 200) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() { cancelled = true; },
    });
    const req = new Request("http://localhost/api/webhooks/github", {
      method: "POST", body, duplex: "half", headers: { "x-hub-signature-256": "sha256=00", "x-github-event": "push", "x-github-delivery": "chunked-1" },
    } as RequestInit);
    const res = await POST(req, undefined as never);
    expect(res.status).toBe(413);
    expect(cancelled).toBe(true);
    // 25 MB is 25 chunks; the stream may have one or two more queued ahead of the reader.
    expect(pulled).toBeLessThanOrEqual(28);
    expect(await rows("chunked-1")).toHaveLength(0);
  });

  it("keeps the webhook secret cache bounded whatever repository names are sent", async () => {
    const { repoTargets, cachedRepoTargetCount, REPO_TARGETS_CACHE_SIZE } = await import("@/lib/github/webhook-secrets");
    await Promise.all(Array.from({ length: REPO_TARGETS_CACHE_SIZE + 200 }, (_, i) => repoTargets(`nobody/repo-${i}`)));
    expect(cachedRepoTargetCount()).toBe(REPO_TARGETS_CACHE_SIZE);
  });
});
