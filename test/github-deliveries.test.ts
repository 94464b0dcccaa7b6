import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { processDelivery } from "@/lib/github/deliveries";
import { pollPullRequests } from "@/lib/github/poll";
import { createBareProject, emptyQueues, queuedJobs } from "./helpers/runs";
import { useGithubTestEnv } from "./helpers/github-env";
import { deliveryColumns } from "./helpers/deliveries";

useGithubTestEnv();

type Json = Record<string, unknown>;
let n = 0;

/** A GitHub project with an open PR #7 (head sha "abc") and a closed PR #8, not connected to GitHub. */
async function githubProject() {
  const { team, project } = await createBareProject();
  const connection = await getDb().githubConnection.create({ data: { teamId: team.id, name: "acme", kind: "pat", botLogin: "ringmaster-bot" } });
  const updated = await getDb().project.update({
    where: { id: project.id }, data: { repoKind: "github", githubOwner: "acme", githubRepo: `w-${project.slug}`, githubConnectionId: connection.id },
  });
  const pr = (number: number, state: "open" | "closed", headSha: string) => getDb().pullRequest.create({
    data: { projectId: project.id, number, url: `https://github.com/acme/w/pull/${number}`, state, headBranch: `ringmaster/${number}-x`, baseBranch: "main", headSha },
  });
  return { team, project: updated, open: await pr(7, "open", "abc"), closed: await pr(8, "closed", "def") };
}

async function stored(projectId: string | null, event: string, payload: Json, over: Json = {}) {
  const deliveryId = `dl-${++n}-${Math.random().toString(36).slice(2, 6)}`;
  await getDb().webhookDelivery.create({ data: { provider: "github", deliveryId, event, projectId, ...deliveryColumns(event, payload), ...over } });
  return deliveryId;
}

const rowOf = (deliveryId: string) => getDb().webhookDelivery.findUniqueOrThrow({ where: { provider_deliveryId: { provider: "github", deliveryId } } });
const user = (login: string) => ({ login });

beforeEach(emptyQueues);

// One project for the many one-delivery cases below (each mutation re-runs only the cases it reaches).
const shared = (async () => {
  const connected = await githubProject();
  const other = await githubProject();
  const unconnected = await getDb().project.update({ where: { id: other.project.id }, data: { githubConnectionId: null } });
  return { project: connected.project, unconnected };
})();

describe("processing a stored delivery (invariant 6)", () => {
  const ignored: Array<[string, Json]> = [
    ["pull_request", { action: "labeled", pull_request: { number: 7 } }],
    ["pull_request", { action: "opened", pull_request: { number: 99, state: "open", head: { sha: "x", ref: "y" } } }],
    ["pull_request_review", { action: "dismissed", review: { user: user("alice") }, pull_request: { number: 7 } }],
    ["pull_request_review", { action: "submitted", review: { user: user("RingMaster-Bot") }, pull_request: { number: 7 } }],
    ["pull_request_review", { action: "submitted", review: {}, pull_request: { number: 7 } }],
    ["pull_request_review", { action: "edited", review: { user: user("alice") }, pull_request: { number: 8 } }],
    ["pull_request_review_comment", { action: "deleted", comment: { user: user("alice") }, pull_request: { number: 7 } }],
    ["pull_request_review_comment", { action: "created", comment: { user: user("alice") }, pull_request: { number: 99 } }],
    ["pull_request_review_comment", { action: "edited", comment: { user: user("alice") } }],
    ["issue_comment", { action: "created", comment: { user: user("alice") }, issue: { number: 7 } }],
    ["issue_comment", { action: "deleted", comment: { user: user("alice") }, issue: { number: 7, pull_request: {} } }],
    ["issue_comment", { action: "created", comment: { user: user("ringmaster-bot") }, issue: { number: 7, pull_request: {} } }],
    ["check_run", { action: "created", check_run: { head_sha: "abc" } }],
    ["check_run", { action: "completed", check_run: { head_sha: "def" } }],
    ["check_run", { action: "completed", check_run: {} }],
    ["check_suite", { action: "requested", check_suite: { head_sha: "abc" } }],
    ["check_suite", { action: "completed", check_suite: { head_sha: "nope" } }],
    ["status", { state: "pending", sha: "abc" }],
    ["status", { state: "success", sha: "nope" }],
    ["push", { ref: "refs/heads/feature" }],
    ["push", { ref: "main" }],
    ["star", { action: "created" }],
    // Payloads missing the part an event names: nothing to act on, and no TypeError.
    ["pull_request_review", { action: "submitted", pull_request: { number: 7 } }],
    ["pull_request_review", { action: "submitted", review: { user: user("alice") } }],
    ["pull_request_review_comment", { action: "created", pull_request: { number: 7 } }],
    ["pull_request_review_comment", { action: "created", comment: {}, pull_request: { number: 7 } }],
    ["issue_comment", { action: "created", issue: { number: 7, pull_request: {} } }],
    ["issue_comment", { action: "created", comment: {}, issue: { number: 7, pull_request: {} } }],
    ["issue_comment", { action: "created", comment: { user: user("alice") } }],
    ["check_run", { action: "completed" }],
    ["check_suite", { action: "completed" }],
  ];

  it.each(ignored)("ignores %s %j and marks it done", async (event, payload) => {
    const { project } = await shared;
    const id = await stored(project.id, event, payload);
    expect(await processDelivery(id)).toBe("ignored");
    expect(await rowOf(id)).toMatchObject({ status: "ignored", error: null });
    expect(await queuedJobs("tick")).toEqual([]);
  });

  const acted: Array<[string, Json]> = [
    ["pull_request_review", { action: "submitted", review: { user: user("alice"), state: "approved" }, pull_request: { number: 7 } }],
    ["pull_request_review", { action: "edited", review: { user: user("alice") }, pull_request: { number: 7 } }],
    ["pull_request_review_comment", { action: "created", comment: { user: user("alice") }, pull_request: { number: 7 } }],
    ["pull_request_review_comment", { action: "edited", comment: { user: user("alice") }, pull_request: { number: 7 } }],
    ["issue_comment", { action: "created", comment: { user: user("alice") }, issue: { number: 7, pull_request: {} } }],
    ["issue_comment", { action: "edited", comment: { user: user("alice") }, issue: { number: 7, pull_request: {} } }],
    ["check_run", { action: "completed", check_run: { head_sha: "abc" } }],
    ["check_suite", { action: "completed", check_suite: { head_sha: "abc" } }],
    ["status", { state: "failure", sha: "abc" }],
  ];

  // Acting needs GitHub: without a connection to act with, the delivery is handed back for a retry, with why.
  it.each(acted)("acts on %s %j for an open PR's head", async (event, payload) => {
    const { unconnected } = await shared;
    const notConnected = `acme/${unconnected.githubRepo} has no GitHub connection: connect it in the project settings`;
    const id = await stored(unconnected.id, event, payload);
    await expect(processDelivery(id)).rejects.toThrow(notConnected);
    expect(await rowOf(id)).toMatchObject({ status: "received", processedAt: null, error: notConnected });
  });

  it("applies a PR's new state, and nudges the tick when the base branch moves", async () => {
    const { project, open } = await githubProject();
    const sync = await stored(project.id, "pull_request", { action: "synchronize", pull_request: { number: 7, state: "open", head: { sha: "new-sha", ref: open.headBranch } } });
    expect(await processDelivery(sync)).toBe("processed");
    expect((await getDb().pullRequest.findUniqueOrThrow({ where: { id: open.id } })).headSha).toBe("new-sha");
    const done = await rowOf(sync);
    expect(done).toMatchObject({ status: "processed", error: null });
    expect(done.processedAt).toBeInstanceOf(Date);

    const push = await stored(project.id, "push", { ref: "refs/heads/main" });
    expect(await processDelivery(push)).toBe("processed");
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "base branch pushed" }]]);
  });

  it("processes a delivery once: claimed, finished, or for no live project, it is not taken again", async () => {
    const { project } = await githubProject();
    expect(await processDelivery("no-such-delivery")).toBeNull();
    const done = await stored(project.id, "push", { ref: "refs/heads/main" }, { status: "processed" });
    expect(await processDelivery(done)).toBeNull();
    const busy = await stored(project.id, "push", { ref: "refs/heads/main" }, { status: "processing", processedAt: new Date(Date.now() - 60_000) });
    expect(await processDelivery(busy)).toBeNull();
    expect((await rowOf(busy)).status).toBe("processing");
    // A claim older than two minutes belongs to a worker that died: taken over.
    const stale = await stored(project.id, "push", { ref: "refs/heads/main" }, { status: "processing", processedAt: new Date(Date.now() - 121_000) });
    expect(await processDelivery(stale)).toBe("processed");

    const orphan = await stored(null, "push", { ref: "refs/heads/main" });
    expect(await processDelivery(orphan)).toBe("ignored");
    await getDb().project.update({ where: { id: project.id }, data: { archivedAt: new Date() } });
    const archived = await stored(project.id, "push", { ref: "refs/heads/main" });
    expect(await processDelivery(archived)).toBe("ignored");
    expect(await processDelivery(archived)).toBeNull();
  });

  it("the project's poll queues again what no job will take: received and not taken after 30 s, or claimed and not settled after 2 minutes", async () => {
    const { project } = await githubProject();
    const ago = (ms: number) => new Date(Date.now() - ms);
    const waiting = await stored(project.id, "push", { ref: "refs/heads/main" }, { receivedAt: ago(31_000) });
    await stored(project.id, "push", { ref: "refs/heads/main" }, { receivedAt: ago(10_000) });
    // A job that stalled mid-batch: its retry found the claim young and took nothing.
    const abandoned = await stored(project.id, "push", { ref: "refs/heads/main" }, { status: "processing", receivedAt: ago(200_000), processedAt: ago(121_000) });
    await stored(project.id, "push", { ref: "refs/heads/main" }, { status: "processing", receivedAt: ago(200_000), processedAt: ago(60_000) });
    await stored(project.id, "push", { ref: "refs/heads/main" }, { status: "processed", receivedAt: ago(200_000), processedAt: ago(190_000) });
    expect(await pollPullRequests(project.id)).toEqual({ polled: 0 });
    const queued = (await queuedJobs("github")).map(([, data]) => (data as { deliveryId: string }).deliveryId).sort();
    expect(queued).toEqual([waiting, abandoned].sort());
    expect(await processDelivery(abandoned)).toBe("processed");
  });

  it("hands a delivery whose processing failed back with the error, for the job's retry", async () => {
    const { project } = await githubProject();
    const id = await stored(project.id, "pull_request", { action: "opened", pull_request: null });
    const message = "Cannot read properties of null (reading 'number')";
    await expect(processDelivery(id)).rejects.toThrow(new TypeError(message));
    expect(await rowOf(id)).toMatchObject({ status: "received", processedAt: null, error: message });
    await getDb().webhookDelivery.update({ where: { provider_deliveryId: { provider: "github", deliveryId: id } }, data: { payload: JSON.stringify({ action: "closed", pull_request: { number: 99, state: "closed", head: { sha: "x", ref: "y" } } }) } });
    expect(await processDelivery(id)).toBe("ignored");
    // The retry that succeeds leaves no trace of the earlier failure.
    const retried = await rowOf(id);
    expect(retried).toMatchObject({ status: "ignored", error: null });
    expect(retried.processedAt).toBeInstanceOf(Date);

    const long = await stored(project.id, "pull_request", { action: "opened", pull_request: { number: "7".repeat(2500) } });
    const err = (await processDelivery(long).catch((e: Error) => e)) as Error;
    expect(err.message.length).toBeGreaterThan(2000);
    expect((await rowOf(long)).error).toBe(err.message.slice(0, 2000));
  });
});
