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
});
