import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueTick, getQueue } from "@/lib/queues";
import { runTick } from "@/lib/loop/tick";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";

describe("ticks", () => {
  it("coalesce a burst of nudges into one waiting tick per project", async () => {
    const a = await createTeamWithProject({ loopEnabled: false });
    const b = await createTeamWithProject({ loopEnabled: false });
    await Promise.all(Array.from({ length: 50 }, (_, i) => enqueueTick(i % 2 ? a.project.id : b.project.id, `burst ${i}`)));
    const waiting = (await getQueue("tick").getJobs(["waiting", "prioritized", "delayed"])).filter((j) => j.name === "nudge");
    expect(waiting.map((j) => j.data.projectId).sort()).toEqual([a.project.id, b.project.id].sort());
  });

  it("run one at a time per project: a concurrent tick is skipped, and limits hold", async () => {
    const { project } = await createTeamWithProject({ maxParallel: 5, cooldownMs: 0 });
    for (let n = 1; n <= 5; n++) await addPrompt(project.id, { number: n, title: `p${n}`, body: "" });
    const results = await Promise.all(Array.from({ length: 8 }, () => runTick(project.id)));
    const ran = results.filter((r) => !r.skipped);
    expect(ran.length).toBeGreaterThanOrEqual(1);
    expect(ran.length + results.filter((r) => r.skipped).length).toBe(8);
    // One spawn per tick (seed 000): the ticks that ran queued exactly that many runs.
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(ran.length);
    const state = await getDb().loopState.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(state.tickLockedBy).toBeNull();
    expect(state.tickCount).toBe(ran.length);
  });

  it("keep going when one project is broken: its run fails, another project's work is done", async () => {
    const broken = await createTeamWithProject({ cooldownMs: 0 });
    const healthy = await createTeamWithProject({ cooldownMs: 0 });
    await getDb().project.update({ where: { id: broken.project.id }, data: { repoPath: "/nonexistent/repo" } });
    await addPrompt(broken.project.id, { number: 1, title: "doomed", body: "" });
    await addPrompt(healthy.project.id, { number: 1, title: "fine", body: "```file ok.txt\nok\n```\n" });
    const { tickAndRun } = await import("./helpers/run-once");
    const bad = await tickAndRun(broken.project.id);
    expect(bad.run!.status).toBe("failed");
    expect(bad.run!.error).toBeTruthy();
    const good = await tickAndRun(healthy.project.id);
    expect(good.run!.status).toBe("succeeded");
    expect((await runTick(broken.project.id)).skipped).toBe(false);
  });
});
