import { afterAll, describe, expect, it } from "vitest";
import { startChaosServices } from "./helpers/chaos";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { getRedis } from "@/lib/redis/connections";
import { apiToken, params, request } from "./helpers/api";
import { createGithubProject, deliver, example, startGithubDouble } from "./helpers/github-fixtures";
import { getDb } from "@/lib/db";
import { enqueueTick, getQueue, relayOutbox, tickSchedulerId } from "@/lib/queues";
import { completeRun } from "@/lib/runs/complete";
import { runTick } from "@/lib/loop/tick";
import { processDelivery } from "@/lib/github/deliveries";
import { POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { POST as postLoop } from "@/app/api/projects/[id]/loop/route";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";

const chaos = await startChaosServices();
const double = await startGithubDouble();
afterAll(() => double.stop());

// ioredis reconnects with a backoff of its own: wait for it rather than for a clock.
const producerBack = () => waitUntil("the producer connection to be ready again", async () => getRedis("producer").status === "ready");

// What the fast path could not hand to Redis, made old enough for the relay (which leaves
// rows younger than a second to the fast path), then relayed: no waiting on a clock.
async function relayAll(): Promise<number> {
  await getDb().outbox.updateMany({ data: { createdAt: new Date(Date.now() - 60_000) } });
  return relayOutbox();
}

describe("the transactional outbox", () => {
  it("a run that finishes while Redis is away commits its merge and wake-up with the outcome; the relay delivers them when Redis answers", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const prompt = await addPrompt(project.id, { number: 1, title: "p", body: "" });
    await getDb().prompt.update({ where: { id: prompt.id }, data: { status: "in_progress" } });
    const run = await getDb().run.create({ data: { projectId: project.id, promptId: prompt.id, kind: "executor", adapter: "demo", status: "running", branch: "b", worktreePath: "/nowhere" } });
    await enqueueTick(project.id, "connect the producer before the outage");
    await getQueue("merge").waitUntilReady();
    await getQueue("tick").obliterate({ force: true });

    await chaos.stopRedis();
    expect(await completeRun(run.id, { status: "succeeded", exitCode: 0, signal: null, commitSha: "a".repeat(40) })).toBe(true);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).mergeStatus).toBe("pending");
    const kept = await getDb().outbox.findMany({ orderBy: { id: "asc" } });
    expect(kept.map((r) => r.payload)).toEqual([{ kind: "merge", runId: run.id }, { kind: "tick", projectId: project.id, reason: "run succeeded" }]);
    // Older than the fast path's window, so the relay takes them.
    await getDb().outbox.updateMany({ data: { createdAt: new Date(Date.now() - 60_000) } });
    await expect(relayOutbox()).rejects.toThrow();
    expect(await getDb().outbox.count()).toBe(2);

    await chaos.startRedis();
    await producerBack();
    expect(await relayOutbox()).toBe(2);
    expect(await getDb().outbox.count()).toBe(0);
    expect(await (await getQueue("merge").getJob(`merge-${run.id}`))!.getState()).toBe("waiting");
    const ticks = await getQueue("tick").getJobs(["waiting"]);
    expect(ticks.map((j) => [j.name, j.data])).toEqual([["nudge", { projectId: project.id, reason: "run succeeded" }]]);
    expect(await relayOutbox()).toBe(0);
  });

  it("API calls answer 2xx while Redis is down; their wake-ups and the schedule wait in the outbox and the loop moves once Redis is back", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false, cooldownMs: 0 });
    const token = await apiToken(team.id, "admin");
    await enqueueTick(project.id, "connect the producer before the outage");
    await getQueue("tick").obliterate({ force: true });
    await getDb().outbox.deleteMany();

    await chaos.stopRedis();
    const loop = (body: unknown) => postLoop(request("POST", `/api/projects/${project.id}/loop`, token, body), params(project.id));
    const created = await postPrompt(request("POST", `/api/projects/${project.id}/prompts`, token, { title: "while Redis is away", body: "sleep 10" }), params(project.id));
    expect(created.status).toBe(201);
    expect((await loop({ action: "start" })).status).toBe(200);
    expect((await loop({ action: "tick" })).status).toBeLessThan(300);
    const settings = await patchSettings(request("PATCH", `/api/projects/${project.id}/settings`, token, { tickIntervalMs: 4000 }), params(project.id));
    expect(settings.status).toBe(200);
    const kept = (await getDb().outbox.findMany({ orderBy: { id: "asc" } })).map((r) => r.payload);
    expect(kept).toEqual(expect.arrayContaining([
      { kind: "tick", projectId: project.id, reason: "prompt created" },
      { kind: "schedule", projectId: project.id },
      { kind: "tick", projectId: project.id, reason: "loop start" },
      { kind: "tick", projectId: project.id, reason: "force tick" },
    ]));
    await expect(relayAll()).rejects.toThrow();

    await chaos.startRedis();
    await producerBack();
    expect(await relayAll()).toBe(kept.length);
    expect(await getDb().outbox.count()).toBe(0);
    // The loop's periodic tick exists at the new interval, and the nudge is waiting.
    expect((await getQueue("tick").getJobScheduler(tickSchedulerId(project.id)))?.every).toBe(4000);
    const nudges = await getQueue("tick").getJobs(["waiting", "prioritized"]);
    expect(nudges.some((j) => j.name === "nudge" && j.data.projectId === project.id)).toBe(true);
    // The tick it wakes starts the prompt created during the outage.
    const tick = await runTick(project.id);
    expect(tick).toMatchObject({ skipped: false, decision: { kind: "spawn_executor" } });
    const run = await getDb().run.findFirstOrThrow({ where: { projectId: project.id } });
    expect(run.promptId).toBe((await created.json()).prompt.id);
    expect(await (await getQueue("spawn").getJob(run.id))?.getState()).toBe("waiting");
  });

  it("a GitHub delivery accepted while Redis is down is stored with its work order, processed once when Redis returns", async () => {
    const { fullName } = await createGithubProject(double);
    await getDb().outbox.deleteMany();
    await chaos.stopRedis();
    const sent = await deliver("push", example("push", undefined, fullName, (p) => { p.ref = "refs/heads/main"; }));
    expect(sent.status).toBe(202);
    expect((await getDb().webhookDelivery.findFirstOrThrow({ where: { deliveryId: sent.deliveryId } })).status).toBe("received");
    expect((await getDb().outbox.findMany()).map((r) => r.payload)).toEqual([{ kind: "github", deliveryId: sent.deliveryId }]);
    // GitHub's redelivery of the same id records no second work order.
    const again = await deliver("push", JSON.parse(sent.raw), undefined, sent.deliveryId);
    expect(again.body).toEqual({ duplicate: true });
    expect(await getDb().outbox.count()).toBe(1);

    await chaos.startRedis();
    await producerBack();
    expect(await relayAll()).toBe(1);
    const job = await getQueue("github").getJob(`gh-${sent.deliveryId}`);
    expect(job?.data).toEqual({ deliveryId: sent.deliveryId });
    expect(await processDelivery(sent.deliveryId)).toBe("processed");
    // A second relay or job of the same delivery finds nothing to do.
    expect(await relayOutbox()).toBe(0);
    expect(await processDelivery(sent.deliveryId)).toBeNull();
  });
});
