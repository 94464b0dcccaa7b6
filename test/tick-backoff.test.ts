import { describe, expect, it } from "vitest";
import type { Job } from "bullmq";
import { getDb } from "@/lib/db";
import { getQueue, tickSchedulerId } from "@/lib/queues";
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
});
