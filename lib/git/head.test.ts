import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { readHeadBranch } from "@/lib/git/head";
import { currentBranch } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { makeSandbox } from "@/lib/git/testing";

describe("readHeadBranch", () => {
  it("agrees with git for a repository, a linked worktree and a detached HEAD", async () => {
    const { repo, worktrees } = await makeSandbox();
    expect(readHeadBranch(repo)).toBe("main");
    expect(readHeadBranch(repo)).toBe(await currentBranch(repo));

    await git(repo, ["worktree", "add", "-q", "-b", "feature/x", join(worktrees, "wt")]);
    expect(readHeadBranch(join(worktrees, "wt"))).toBe("feature/x");

    await git(repo, ["checkout", "-q", "--detach"]);
    expect(readHeadBranch(repo)).toBeNull();
    expect(await currentBranch(repo)).toBeNull();
  });
});
