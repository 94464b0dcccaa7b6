import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { getEnv } from "@/lib/env";
import { readyDir } from "@/lib/git/worktree-pool-entry";
import { poolDir, poolFillsSettled, poolSize, refillPool } from "@/lib/runs/worktree-pool";
import { createTeamWithProject } from "./helpers/fixtures";

const ready = async (projectId: string) => (await readdir(readyDir(poolDir(projectId))).catch(() => [])).length;

describe("a project's pool of ready worktrees", () => {
  it("holds as many as the project starts agents at once, up to WORKTREE_POOL_SIZE, and follows its settings", async () => {
    expect(getEnv().WORKTREE_POOL_SIZE).toBe(4);
    const { project, repoPath } = await createTeamWithProject();
    const target = (settings: { parallelEnabled: boolean; maxParallel: number }) => ({ projectId: project.id, repoPath, baseBranch: "main", settings });

    // A burst into three free slots takes three at once.
    refillPool(target({ parallelEnabled: true, maxParallel: 3 }), { create: true });
    await poolFillsSettled();
    expect(await ready(project.id)).toBe(3);

    // Parallel off runs one agent at a time: one is kept, the others go.
    refillPool(target({ parallelEnabled: false, maxParallel: 3 }), { create: true });
    await poolFillsSettled();
    expect(await ready(project.id)).toBe(1);

    // A refill asked for while one runs is made for the latest settings.
    refillPool(target({ parallelEnabled: true, maxParallel: 2 }), { create: true });
    refillPool(target({ parallelEnabled: true, maxParallel: 10 }), { create: true });
    await poolFillsSettled();
    expect(await ready(project.id)).toBe(4);
  });

  it("is sized by the parallel limit, capped by WORKTREE_POOL_SIZE; 0 keeps none", () => {
    const was = getEnv().WORKTREE_POOL_SIZE;
    try {
      expect([poolSize({ parallelEnabled: true, maxParallel: 3 }), poolSize({ parallelEnabled: true, maxParallel: 50 }), poolSize({ parallelEnabled: false, maxParallel: 50 })]).toEqual([3, 4, 1]);
      Object.assign(getEnv(), { WORKTREE_POOL_SIZE: 2 });
      expect([poolSize({ parallelEnabled: true, maxParallel: 3 }), poolSize({ parallelEnabled: true, maxParallel: 1 })]).toEqual([2, 1]);
      Object.assign(getEnv(), { WORKTREE_POOL_SIZE: 0 });
      expect(poolSize({ parallelEnabled: false, maxParallel: 3 })).toBe(0);
    } finally {
      Object.assign(getEnv(), { WORKTREE_POOL_SIZE: was });
    }
  });
});
