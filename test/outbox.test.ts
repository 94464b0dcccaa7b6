import { describe, expect, it } from "vitest";
import { startChaosServices } from "./helpers/chaos";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { getDb } from "@/lib/db";
import { enqueueTick, getQueue, relayOutbox } from "@/lib/queues";
import { completeRun } from "@/lib/runs/complete";

const chaos = await startChaosServices();

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
    expect(await relayOutbox()).toBe(2);
    expect(await getDb().outbox.count()).toBe(0);
    expect(await (await getQueue("merge").getJob(`merge-${run.id}`))!.getState()).toBe("waiting");
    const ticks = await getQueue("tick").getJobs(["waiting"]);
    expect(ticks.map((j) => [j.name, j.data])).toEqual([["nudge", { projectId: project.id, reason: "run succeeded" }]]);
    expect(await relayOutbox()).toBe(0);
  });
});
