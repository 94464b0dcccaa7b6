import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { headSha } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { makeSandbox } from "@/lib/git/testing";
import { listWorktrees, pruneWorktrees } from "@/lib/git/worktree-list";

describe("listWorktrees", () => {
  it("parses branches, detached and locked worktrees, main first", async () => {
    const { repo, worktrees } = await makeSandbox();
    const sha = await headSha(repo);
    await git(repo, ["worktree", "add", "--quiet", "-b", "feature", join(worktrees, "with space")]);
    await git(repo, ["worktree", "add", "--quiet", "--detach", "--lock", join(worktrees, "detached")]);
    const base = { head: sha, bare: false, detached: false, locked: false, prunable: false };
    const [main, ...linked] = await listWorktrees(repo);
    expect(main).toEqual({ ...base, path: repo, branch: "main" });
    expect(linked.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { ...base, path: join(worktrees, "detached"), branch: null, detached: true, locked: true },
      { ...base, path: join(worktrees, "with space"), branch: "feature" },
    ]);
  });

  it("marks deleted worktrees prunable until pruned", async () => {
    const { repo, worktrees } = await makeSandbox();
    const path = join(worktrees, "gone");
    await git(repo, ["worktree", "add", "--quiet", "-b", "feature", path]);
    await rm(path, { recursive: true });
    expect((await listWorktrees(repo))[1]).toMatchObject({ path, prunable: true });
    await pruneWorktrees(repo);
    expect(await listWorktrees(repo)).toHaveLength(1);
  });
});
