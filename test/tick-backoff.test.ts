import { describe, expect, it } from "vitest";
import type { Job } from "bullmq";
import { getDb } from "@/lib/db";
import { enqueueTick, getQueue, retryTickId, tickSchedulerId } from "@/lib/queues";
import { getEnv } from "@/lib/env";
import { QUEUE_RAN_DRY } from "@/lib/activity/change";
import { changeLoopMode } from "@/lib/loop/controls";
import { createPrompt } from "@/lib/prompts/create";
import { processTick } from "@/workers/tick";
import { createTeamWithProject } from "./helpers/fixtures";

// The scheduler's own tick, as BullMQ hands it to the processor.
const scheduled = (projectId: string) => processTick({ projectId, reason: "schedule" }, { name: "scheduled" } as Job);
const period = async (projectId: string) => (await getQueue("tick").getJobScheduler(tickSchedulerId(projectId)))?.every;
const level = async (projectId: string) => (await getDb().loopState.findUniqueOrThrow({ where: { projectId } })).tickBackoff;
// The scheduler's next job: exactly one, however often its period changed.
const nextScheduled = async (projectId: string) => (await getQueue("tick").getJobs(["delayed", "waiting", "prioritized"], 0, -1))
  .filter((j) => j?.name === "scheduled" && j.data.projectId === projectId);

describe("the safety-net tick of an idle project", () => {
  it("does not exist while the loop is stopped", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    expect(await period(project.id)).toBeUndefined();
    expect(await nextScheduled(project.id)).toHaveLength(0);
  });

  it("doubles its period up to 160 s while a running loop has nothing to do, and a nudge brings it back to the interval", async () => {
    const { project } = await createTeamWithProject();
    expect(await period(project.id)).toBe(5000);
    const periods: Array<number | undefined> = [];
    for (let i = 0; i < 6; i++) {
      expect(await scheduled(project.id)).toMatchObject({ skipped: false });
      periods.push(await period(project.id));
    }
    expect(periods).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 160_000]);
    expect(await level(project.id)).toBe(5);
    const [next] = await nextScheduled(project.id);
    expect(await nextScheduled(project.id)).toHaveLength(1);
    // The new period starts after the tick that set it, not at once.
    expect(next.timestamp + next.delay).toBeGreaterThan(Date.now() + 60_000);

    // Any event is a nudge: the next safety-net tick is one interval away again.
    expect(await processTick({ projectId: project.id, reason: "webhook" }, { name: "nudge" } as Job)).toMatchObject({ skipped: false });
    expect(await period(project.id)).toBe(5000);
    expect(await level(project.id)).toBe(0);
    expect(await nextScheduled(project.id)).toHaveLength(1);
  });

  it("misses no work: a prompt created while it is backed off starts from the prompt's own nudge", async () => {
    const { project, team } = await createTeamWithProject();
    for (let i = 0; i < 4; i++) await scheduled(project.id);
    expect(await period(project.id)).toBe(80_000);

    const person = { kind: "user" as const, id: "someone", teamId: team.id, role: "owner" as const, projectId: null };
    const prompt = await createPrompt(person, project, { title: "late work", body: "print hi\n" });
    const nudges = (await getQueue("tick").getJobs(["waiting", "prioritized", "delayed"], 0, -1))
      .filter((j) => j?.name === "nudge" && j.data.projectId === project.id);
    expect(nudges).toHaveLength(1);
    const result = await processTick(nudges[0].data, nudges[0]);
    expect(result).toMatchObject({ skipped: false, decision: { kind: "spawn_executor", promptId: prompt.id } });
    expect(await getDb().run.count({ where: { promptId: prompt.id, status: "queued" } })).toBe(1);
    expect(await period(project.id)).toBe(5000);

    // With a run live the tick is not idle: a scheduled tick keeps the interval.
    await scheduled(project.id);
    expect(await period(project.id)).toBe(5000);
  });

  it("backs off a paused loop too, and a stop removes it whatever its period", async () => {
    const { project } = await createTeamWithProject();
    await changeLoopMode(project, "pause");
    await scheduled(project.id);
    await scheduled(project.id);
    expect(await period(project.id)).toBe(20_000);
    expect(await changeLoopMode(project, "stop")).toBe("stopped");
    expect(await period(project.id)).toBeUndefined();
  });

  it("starts a loop its queue ran dry on again from the new prompt's nudge, and its safety-net tick one period later", async () => {
    const person = (teamId: string) => ({ kind: "user" as const, id: "someone", teamId, role: "owner" as const, projectId: null });
    const ranDry = async () => {
      const made = await createTeamWithProject();
      await changeLoopMode(made.project, "stop");
      await getDb().loopState.update({ where: { projectId: made.project.id }, data: { pauseReason: QUEUE_RAN_DRY } });
      expect(await period(made.project.id)).toBeUndefined();
      return made;
    };
    const { project, team } = await ranDry();
    const before = Date.now();
    await createPrompt(person(team.id), project, { title: "new work", body: "print hi\n" });
    expect(await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } })).toMatchObject({ mode: "running" });
    expect(await period(project.id)).toBe(5000);
    // Started at once, the scheduler's tick ran beside the nudge's, and one found the other's lock.
    const [next] = await nextScheduled(project.id);
    expect(next.timestamp + next.delay).toBeGreaterThanOrEqual(before + 5000);
    const nudges = (await getQueue("tick").getJobs(["waiting", "prioritized"], 0, -1)).filter((j) => j?.name === "nudge" && j.data.projectId === project.id);
    // The stop's own nudge waits still, and the prompt's joined it.
    expect(nudges).toHaveLength(1);

    // Without nudges the scheduler's own tick is the one that starts the work: at once.
    const quiet = await ranDry();
    const nudgesWere = getEnv().NUDGES;
    Object.assign(getEnv(), { NUDGES: "off" });
    try {
      await createPrompt(person(quiet.team.id), quiet.project, { title: "new work", body: "print hi\n" });
    } finally {
      Object.assign(getEnv(), { NUDGES: nudgesWere });
    }
    const [first] = await nextScheduled(quiet.project.id);
    expect(first.timestamp + first.delay).toBeLessThan(Date.now() + 5000);
  });
});

describe("a nudge that finds another tick of its project running", () => {
  it("comes back 100 ms later, and a nudge sent meanwhile is not swallowed by it", async () => {
    const { project } = await createTeamWithProject();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { tickLockedBy: "another-worker", tickLockedUntil: new Date(Date.now() + 60_000) } });
    expect(await processTick({ projectId: project.id, reason: "run succeeded" }, { name: "nudge" } as Job)).toEqual({ skipped: "locked" });
    const jobs = async (states: Parameters<ReturnType<typeof getQueue>["getJobs"]>[0]) =>
      (await getQueue("tick").getJobs(states, 0, -1)).filter((j) => j?.name === "nudge" && j.data.projectId === project.id);
    const [retry, ...more] = await jobs(["delayed"]);
    expect(more).toEqual([]);
    expect(retry).toMatchObject({ data: { reason: "run succeeded" }, delay: 100 });
    expect(retry.deduplicationId).toBe(retryTickId(project.id));

    // The next event's nudge (a burst's next tick, say) is queued at once beside it.
    await enqueueTick(project.id, "another slot is free and a prompt waits");
    expect((await jobs(["waiting", "prioritized"])).map((j) => j.data.reason)).toEqual(["another slot is free and a prompt waits"]);
    // One retry at a time: another nudge finding the lock held joins the one waiting.
    expect(await processTick({ projectId: project.id, reason: "merge merged" }, { name: "nudge" } as Job)).toEqual({ skipped: "locked" });
    expect(await jobs(["delayed"])).toHaveLength(1);
  });
});
