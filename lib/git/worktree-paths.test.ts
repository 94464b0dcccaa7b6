import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "@/lib/git/run";
import { makeSandbox } from "@/lib/git/testing";
import { createWorktree } from "@/lib/git/worktree-create";
import { worktreeGitPaths, type WorktreeGitPaths } from "@/lib/git/worktree-paths";

// What git answers for the same worktree: the files are read only where they say the same.
async function gitSays(worktree: string): Promise<WorktreeGitPaths> {
  const [commonDir, worktreeDir, ref] = (await git(worktree, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--symbolic-full-name", "HEAD"])).trim().split("\n");
  return { commonDir, worktreeDir, branchRef: ref === "HEAD" ? null : ref };
}

describe("worktreeGitPaths", () => {
  it("answers as git does for a linked worktree on a branch, detached, and for the main checkout", async () => {
    const { repo, worktrees } = await makeSandbox();
    const { path } = await createWorktree({ repoPath: repo, path: join(worktrees, "p", "run-1"), branch: "ringmaster/1-fix", baseBranch: "main" });
    const onBranch = await worktreeGitPaths(path);
    expect(onBranch).toEqual(await gitSays(path));
    expect(onBranch).toEqual({ commonDir: join(repo, ".git"), worktreeDir: join(repo, ".git", "worktrees", "run-1"), branchRef: "refs/heads/ringmaster/1-fix" });

    await git(path, ["checkout", "-q", "--detach"]);
    expect(await worktreeGitPaths(path)).toEqual({ ...onBranch, branchRef: null });
    expect(await worktreeGitPaths(path)).toEqual(await gitSays(path));

    expect(await worktreeGitPaths(repo)).toEqual({ commonDir: join(repo, ".git"), worktreeDir: join(repo, ".git"), branchRef: "refs/heads/main" });
    expect(await worktreeGitPaths(repo)).toEqual(await gitSays(repo));
  });

  it("asks git when the .git file is not the form git writes, and fails as git does", async () => {
    const { repo, worktrees } = await makeSandbox();
    const { path } = await createWorktree({ repoPath: repo, path: join(worktrees, "p", "run-2"), branch: "ringmaster/2-fix", baseBranch: "main" });
    await writeFile(join(path, ".git"), "not a gitdir line\n");
    await expect(worktreeGitPaths(path)).rejects.toThrow(/git rev-parse/);
  });

  it("fails for a folder that is no worktree", async () => {
    const { worktrees } = await makeSandbox();
    await expect(worktreeGitPaths(worktrees)).rejects.toThrow(/ENOENT/);
  });
});
