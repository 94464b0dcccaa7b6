import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { BATCHED_PAYLOAD_BYTES, processDeliveries } from "@/lib/github/deliveries";
import { getQueue, publishOutboxBatched } from "@/lib/queues";
import { createBareProject, queuedJobs } from "./helpers/runs";
import { useGithubTestEnv } from "./helpers/github-env";
import { deliveryColumns } from "./helpers/deliveries";

useGithubTestEnv();

type Json = Record<string, unknown>;
let n = 0;

/** A GitHub project with an open PR #7 (head sha "abc"); `connected: false` leaves it without a GitHub connection. */
async function githubProject({ connected = true } = {}) {
  const { team, project } = await createBareProject();
  const connection = connected ? await getDb().githubConnection.create({ data: { teamId: team.id, name: "acme", kind: "pat", botLogin: "ringmaster-bot" } }) : null;
  const updated = await getDb().project.update({
    where: { id: project.id }, data: { repoKind: "github", githubOwner: "acme", githubRepo: `w-${project.slug}`, githubConnectionId: connection?.id ?? null },
  });
  const pr = await getDb().pullRequest.create({
    data: { projectId: project.id, number: 7, url: "https://github.com/acme/w/pull/7", state: "open", headBranch: "ringmaster/7-x", baseBranch: "main", headSha: "abc" },
  });
  return { project: updated, pr };
}

async function stored(projectId: string | null, event: string, payload: Json, over: Json = {}) {
  const deliveryId = `batch-${++n}-${Math.random().toString(36).slice(2, 6)}`;
  await getDb().webhookDelivery.create({ data: { provider: "github", deliveryId, event, projectId, ...deliveryColumns(event, payload), ...over } });
  return deliveryId;
}

const rowOf = (deliveryId: string) => getDb().webhookDelivery.findUniqueOrThrow({ where: { provider_deliveryId: { provider: "github", deliveryId } } });
const synchronize = (sha: string) => ({ action: "synchronize", pull_request: { number: 7, state: "open", head: { sha, ref: "ringmaster/7-x" } } });
const headSha = async (id: string) => (await getDb().pullRequest.findUniqueOrThrow({ where: { id } })).headSha;

beforeEach(() => getQueue("github").obliterate({ force: true }));

describe("processing deliveries in batches (invariant 6)", () => {
  it("claims a batch at once, settles each delivery with its outcome, and takes none of them again", async () => {
    const { project, pr } = await githubProject();
    const sync = await stored(project.id, "pull_request", synchronize("def"));
    const feature = await stored(project.id, "push", { ref: "refs/heads/feature" });
    const orphan = await stored(null, "push", { ref: "refs/heads/main" });
    const done = await stored(project.id, "push", { ref: "refs/heads/main" }, { status: "processed" });
    const outcomes = await processDeliveries([sync, feature, orphan, done, "no-such-delivery"]);
    expect([...outcomes]).toEqual([[sync, "processed"], [feature, "ignored"], [orphan, "ignored"]]);
    expect(await headSha(pr.id)).toBe("def");
    for (const [id, status] of [[sync, "processed"], [feature, "ignored"], [orphan, "ignored"], [done, "processed"]]) {
      const row = await rowOf(id);
      expect(row).toMatchObject({ status, error: null });
    }
    expect((await rowOf(sync)).processedAt).toBeInstanceOf(Date);
    expect([...(await processDeliveries([sync, feature, orphan]))]).toEqual([]);
  });

  it.each([
    ["in the order the job lists them", ["one", "two"], "two"],
    ["reversed when the job lists them reversed", ["two", "one"], "one"],
  ])("processes deliveries about one pull request %s", async (_, shas, last) => {
    const { project, pr } = await githubProject();
    const ids = new Map<string, string>();
    for (const sha of ["one", "two"]) ids.set(sha, await stored(project.id, "pull_request", synchronize(sha)));
    expect((await processDeliveries(shas.map((s) => ids.get(s)!))).size).toBe(2);
    expect(await headSha(pr.id)).toBe(last);
  });

  it.each([
    ["after", ["small", "large"], "large"],
    ["before", ["large", "small"], "small"],
  ])("reads a payload too large to batch when its turn comes, %s a smaller one about the same pull request", async (_, order, last) => {
    const { project, pr } = await githubProject();
    // Random text does not compress: stored, it is far past what a batch carries.
    const padding = randomBytes(3 * BATCHED_PAYLOAD_BYTES).toString("hex");
    const ids = new Map([
      ["small", await stored(project.id, "pull_request", synchronize("small"))],
      ["large", await stored(project.id, "pull_request", { ...synchronize("large"), padding })],
    ]);
    expect([...(await processDeliveries(order.map((o) => ids.get(o)!)))]).toEqual(order.map((o) => [ids.get(o), "processed"]));
    expect(await headSha(pr.id)).toBe(last);
  });

  it("hands back a failed delivery with its error and the later ones about the same thing untried; the retry takes only those", async () => {
    const { project, pr } = await githubProject({ connected: false });
    const notConnected = `acme/${project.githubRepo} has no GitHub connection: connect it in the project settings`;
    const failing = await stored(project.id, "issue_comment", { action: "created", comment: { user: { login: "alice" } }, issue: { number: 7, pull_request: {} } });
    const behind = await stored(project.id, "pull_request", synchronize("late"));
    const other = await stored(project.id, "push", { ref: "refs/heads/feature" });
    await expect(processDeliveries([failing, behind, other])).rejects.toThrow(notConnected);
    expect(await rowOf(failing)).toMatchObject({ status: "received", processedAt: null, error: notConnected });
    expect(await rowOf(behind)).toMatchObject({ status: "received", processedAt: null, error: `waits for delivery ${failing}, which failed: ${notConnected}` });
    expect(await headSha(pr.id)).toBe("abc");
    expect(await rowOf(other)).toMatchObject({ status: "ignored", error: null });

    // The comment is deleted meanwhile (what the retry now reads): the retry takes the two handed back, in order.
    await getDb().webhookDelivery.update({ where: { provider_deliveryId: { provider: "github", deliveryId: failing } }, data: { payload: JSON.stringify({ action: "deleted", issue: { number: 7, pull_request: {} } }) } });
    expect([...(await processDeliveries([failing, behind, other]))]).toEqual([[failing, "ignored"], [behind, "processed"]]);
    expect(await headSha(pr.id)).toBe("late");
    expect(await rowOf(behind)).toMatchObject({ status: "processed", error: null });
  });

  it("hands back a delivery whose stored payload cannot be parsed, with the parse error; one for no live project is ignored unread", async () => {
    const { project, pr } = await githubProject();
    let parseError = "";
    try { JSON.parse("not json"); } catch (err) { parseError = (err as Error).message; }
    // The stored text is no JSON (the intake never stores such a body; a row written by hand or damaged may be).
    const broken = await stored(project.id, "pull_request", "not json" as never);
    const orphan = await stored(null, "pull_request", "not json" as never);
    const sync = await stored(project.id, "pull_request", synchronize("def"));
    await expect(processDeliveries([broken, orphan, sync])).rejects.toThrow(new SyntaxError(parseError));
    expect(await rowOf(broken)).toMatchObject({ status: "received", processedAt: null, error: parseError });
    expect(await rowOf(orphan)).toMatchObject({ status: "ignored", error: null });
    // The broken one's subject is its event (no pull request number can be read from it): the sync about #7 is not held behind it.
    expect(await rowOf(sync)).toMatchObject({ status: "processed", error: null });
    expect(await headSha(pr.id)).toBe("def");
  });

  it("keeps a failure's error, and the error of each delivery waiting behind it, to 2,000 characters", async () => {
    const { project } = await githubProject({ connected: false });
    const repo = "r".repeat(2100);
    await getDb().project.update({ where: { id: project.id }, data: { githubRepo: repo } });
    const full = `acme/${repo} has no GitHub connection: connect it in the project settings`;
    const failing = await stored(project.id, "issue_comment", { action: "created", comment: { user: { login: "alice" } }, issue: { number: 7, pull_request: {} } });
    const behind = await stored(project.id, "pull_request", synchronize("late"));
    await expect(processDeliveries([failing, behind])).rejects.toThrow(full);
    expect((await rowOf(failing)).error).toBe(full.slice(0, 2000));
    const waits = (await rowOf(behind)).error!;
    expect(waits).toBe(`waits for delivery ${failing}, which failed: ${full}`.slice(0, 2000));
    expect(waits).toHaveLength(2000);
  });

  it("publishes GitHub work orders sent together as one job, a lone one under its delivery's job id", async () => {
    const orders = ["d-1", "d-2", "d-3"].map((deliveryId, i) => ({ id: String(900_000 + i), message: { kind: "github" as const, deliveryId } }));
    // The first goes out at once; the two arriving while it is sent go together after it.
    await Promise.all(orders.map((o) => publishOutboxBatched(o)));
    expect(await queuedJobs("github")).toEqual(expect.arrayContaining([
      ["gh-d-1", { deliveryId: "d-1" }],
      ["ghb-900001", { deliveryIds: ["d-2", "d-3"] }],
    ]));
    expect(await queuedJobs("github")).toHaveLength(2);
  });
});
