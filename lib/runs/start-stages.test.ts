import { describe, expect, it } from "vitest";
import { StartStages } from "@/lib/runs/start-stages";

describe("StartStages", () => {
  it("gives each stage's duration since the previous mark, from the job's enqueue and pick-up", () => {
    const clock = [1_060, 1_100, 1_175];
    const stages = new StartStages({ queuedAt: 1_000, pickedAt: 1_010 }, () => clock.shift()!);
    stages.mark("claimed");
    stages.mark("worktree");
    stages.mark("spawned");
    expect(stages.durations()).toEqual({ picked: 10, claimed: 50, worktree: 40, spawned: 75, total: 175 });
  });

  it("starts at its own creation without a job's timestamps", () => {
    const clock = [500, 530];
    const stages = new StartStages({}, () => clock.shift()!);
    stages.mark("claimed");
    expect(stages.durations()).toEqual({ claimed: 30, total: 30 });
  });

  it("times steps run side by side, each on its own, a failed one too", async () => {
    let t = 0;
    const stages = new StartStages({}, () => t);
    let release!: () => void;
    t = 10;
    const slow = stages.timed("worktree", () => new Promise<string>((r) => { release = () => r("made"); }));
    t = 12;
    let finish!: () => void;
    const quick = stages.timed("token", () => new Promise<string>((r) => { finish = () => r("t"); }));
    t = 14;
    finish();
    await expect(quick).resolves.toBe("t");
    t = 20;
    const failing = stages.timed("prices", async () => { t = 35; throw new Error("no prices"); });
    await expect(failing).rejects.toThrow("no prices");
    t = 60;
    release();
    await expect(slow).resolves.toBe("made");
    expect(stages.steps()).toEqual({ token: 2, prices: 15, worktree: 50 });
    // Steps are not stages: the stages' durations are the marks' alone.
    expect(stages.durations()).toEqual({ total: 0 });
  });
});
