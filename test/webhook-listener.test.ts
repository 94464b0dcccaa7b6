// The webhook intake as the worker's plain node:http listener (WEBHOOK_LISTENER_PORT): the same
// checks and answers as the web app's routes, one module both call (lib/webhooks/receive.ts).
import { createHmac } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { encryptSecret } from "@/lib/crypto/secrets";
import { forgetRepoTargets } from "@/lib/github/webhook-secrets";
import { getQueue, sentOrdersDeleted } from "@/lib/queues";
import { startWebhookListener } from "@/lib/webhooks/listener";
import { createBareProject, queuedJobs } from "./helpers/runs";
import { useGithubTestEnv } from "./helpers/github-env";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";

useGithubTestEnv();
const SECRET = "listener-webhook-secret-0001";
const sign = (raw: string, secret = SECRET) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
let n = 0;

async function githubProject() {
  const { team, project } = await createBareProject();
  const repo = `widgets-${Math.random().toString(36).slice(2, 8)}`;
  const connection = await getDb().githubConnection.create({
    data: { teamId: team.id, name: "acme", kind: "pat", encryptedWebhookSecret: encryptSecret(SECRET), botLogin: "ringmaster-bot" },
  });
  await getDb().project.update({ where: { id: project.id }, data: { repoKind: "github", githubOwner: "acme", githubRepo: repo, githubConnectionId: connection.id } });
  return { project, fullName: `acme/${repo}` };
}

/** A signed issue_comment delivery on a plain issue: stored, queued, then ignored by a worker. */
function delivery(fullName: string, secret = SECRET) {
  const id = `listener-${++n}-${Math.random().toString(36).slice(2, 8)}`;
  const raw = JSON.stringify({ action: "created", repository: { full_name: fullName }, issue: { number: 7 }, comment: { body: "noted", user: { login: "alice" } } });
  const headers = { "content-type": "application/json", "x-github-event": "issue_comment", "x-github-delivery": id, "x-hub-signature-256": sign(raw, secret) };
  return { id, raw, headers };
}

const post = async (url: string, d: { raw: string; headers: Record<string, string> }) => {
  const res = await fetch(url, { method: "POST", headers: d.headers, body: d.raw });
  return { status: res.status, body: await res.json(), cacheControl: res.headers.get("cache-control") };
};
const rowsOf = (deliveryId: string) => getDb().webhookDelivery.findMany({ where: { provider: "github", deliveryId } });

beforeEach(async () => {
  forgetRepoTargets();
  await getQueue("github").obliterate({ force: true });
});

describe("the webhook listener in this process", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    ({ server } = await startWebhookListener(0, "127.0.0.1"));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => { server.close(r); server.closeAllConnections(); }));

  it("stores and enqueues a signed delivery exactly once; its redelivery is answered 200 and adds nothing", async () => {
    const { project, fullName } = await githubProject();
    const d = delivery(fullName);
    expect(await post(`${url}/api/webhooks/github`, d)).toEqual({ status: 202, body: { accepted: true }, cacheControl: "no-store" });
    expect(await post(`${url}/api/webhooks/github`, d)).toEqual({ status: 200, body: { duplicate: true }, cacheControl: "no-store" });
    const rows = await rowsOf(d.id);
    expect(rows.map((r) => [r.event, r.action, r.projectId, r.status, r.payload])).toEqual([["issue_comment", "created", project.id, "received", d.raw]]);
    expect(await queuedJobs("github")).toEqual([[`gh-${d.id}`, { deliveryId: d.id }]]);
    await sentOrdersDeleted();
    expect(await getDb().outbox.count({ where: { kind: "github" } })).toBe(0);
  });

  it("refuses a forged or unsigned delivery with 401 and stores nothing", async () => {
    const { fullName } = await githubProject();
    const forged = delivery(fullName, "someone-elses-secret-000");
    expect(await post(`${url}/api/webhooks/github`, forged)).toEqual({ status: 401, body: { error: { code: "unauthenticated", message: "signature does not match" } }, cacheControl: "no-store" });
    const unsigned = delivery(fullName);
    delete (unsigned.headers as Record<string, string>)["x-hub-signature-256"];
    expect((await post(`${url}/api/webhooks/github`, unsigned)).body).toEqual({ error: { code: "unauthenticated", message: "missing X-Hub-Signature-256" } });
    expect(await getDb().webhookDelivery.count({ where: { deliveryId: { in: [forged.id, unsigned.id] } } })).toBe(0);
    expect(await queuedJobs("github")).toEqual([]);
  });

  it("refuses a body past the endpoint's cap with 413 before reading it whole, and stores nothing", async () => {
    const raw = "x".repeat(1024 * 1024 + 1);
    const res = await fetch(`${url}/api/webhooks/slack/c0nnection`, { method: "POST", headers: { "x-slack-signature": "v0=00", "x-slack-request-timestamp": "1" }, body: raw });
    expect([res.status, await res.json()]).toEqual([413, { error: { code: "too_large", message: "an event is at most 1 MB" } }]);
    expect(await getDb().webhookDelivery.count({ where: { provider: "slack" } })).toBe(0);
  });

  it("answers 404 for any other path and 405 for a method other than POST", async () => {
    const other = await fetch(`${url}/api/webhooks/ceiling`, { method: "POST", body: "{}" });
    expect([other.status, await other.json()]).toEqual([404, { error: { code: "not_found", message: "not found" } }]);
    const get = await fetch(`${url}/api/webhooks/github`);
    expect([get.status, await get.json()]).toEqual([405, { error: { code: "method_not_allowed", message: "webhooks are POSTed" } }]);
  });
});

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => { const p = (s.address() as AddressInfo).port; s.close(() => resolve(p)); });
});

describe("the listener in a worker process (WEBHOOK_LISTENER_PORT)", () => {
  it("takes a signed delivery, stores it once and processes it once; a burst too", async () => {
    const { fullName } = await githubProject();
    const port = await freePort();
    const worker = startWorkerProcess({ WEBHOOK_LISTENER_PORT: String(port), WEBHOOK_LISTENER_HOST: "127.0.0.1", TICK_SCHEDULES: "off" });
    try {
      await waitForWorkers(worker);
      const d = delivery(fullName);
      expect((await post(`http://127.0.0.1:${port}/api/webhooks/github`, d)).status).toBe(202);
      expect((await post(`http://127.0.0.1:${port}/api/webhooks/github`, d)).body).toEqual({ duplicate: true });
      // A comment on a plain issue mentioning no one: the github worker claims it and ignores it.
      for (const until = Date.now() + 60_000; (await rowsOf(d.id))[0]?.status !== "ignored";) {
        if (Date.now() > until) throw new Error(`delivery not processed: ${JSON.stringify(await rowsOf(d.id))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await rowsOf(d.id)).length).toBe(1);
      // The job writes the delivery's outcome before BullMQ records the job as finished: wait for that.
      const jobsNow = async () => (await getQueue("github").getJobs(["completed", "failed", "waiting", "active", "delayed"])).map((j) => [j.id, j.finishedOn !== undefined, j.failedReason ?? null]);
      let jobs = await jobsNow();
      for (const until = Date.now() + 60_000; !jobs.every(([, finished]) => finished); jobs = await jobsNow()) {
        if (Date.now() > until) throw new Error(`job not finished: ${JSON.stringify(jobs)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(jobs).toEqual([[`gh-${d.id}`, true, null]]);

      // A burst: deliveries published together share a job; each is in exactly one, processed once.
      const burst = Array.from({ length: 12 }, () => delivery(fullName));
      const answers = await Promise.all(burst.map((b) => post(`http://127.0.0.1:${port}/api/webhooks/github`, b)));
      expect(answers.map((a) => a.status)).toEqual(burst.map(() => 202));
      const ids = burst.map((b) => b.id);
      for (const until = Date.now() + 60_000; (await getDb().webhookDelivery.count({ where: { deliveryId: { in: ids }, status: "ignored", error: null } })) !== ids.length;) {
        if (Date.now() > until) throw new Error(`burst not processed: ${JSON.stringify(await getDb().webhookDelivery.findMany({ where: { deliveryId: { in: ids } } }))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // A job's deliveries are written before BullMQ records the job as finished: wait for that too.
      const burstJobsNow = async () => (await getQueue("github").getJobs(["completed", "failed", "waiting", "active", "delayed"])).filter((j) => j.id !== `gh-${d.id}`);
      let burstJobs = await burstJobsNow();
      for (const until = Date.now() + 60_000; !burstJobs.every((j) => j.finishedOn !== undefined); burstJobs = await burstJobsNow()) {
        if (Date.now() > until) throw new Error(`burst jobs not finished: ${JSON.stringify(burstJobs.map((j) => [j.id, j.finishedOn ?? null]))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(burstJobs.map((j) => j.failedReason ?? null)).toEqual(burstJobs.map(() => null));
      expect(burstJobs.flatMap((j) => ("deliveryIds" in j.data ? j.data.deliveryIds : "deliveryId" in j.data ? [j.data.deliveryId] : [])).sort()).toEqual([...ids].sort());
      // What the jobs claimed: a batch reports its count, a lone delivery its outcome.
      expect(burstJobs.reduce((t, j) => t + (typeof j.returnvalue === "string" ? 1 : (j.returnvalue as { claimed: number }).claimed), 0)).toBe(ids.length);
    } finally {
      await stopWorkerProcess(worker);
    }
  });
});
