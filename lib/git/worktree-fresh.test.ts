import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { branchSha, currentBranch } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox } from "@/lib/git/testing";
import { createWorktree } from "@/lib/git/worktree-create";
import { createFreshWorktree } from "@/lib/git/worktree-fresh";

const pathIn = (root: string) => (branch: string) => join(root, branch.replaceAll("/", "_"));

describe("createFreshWorktree", () => {
  it("branches from the base tip into a worktree, with no tracking config", async () => {
    const { repo, worktrees } = await makeSandbox();
    const created = await createFreshWorktree({ repoPath: repo, name: "ringmaster/1-fix", baseBranch: "main", pathOf: pathIn(worktrees) });
    expect(created).toEqual({ path: join(worktrees, "ringmaster_1-fix"), branch: "ringmaster/1-fix", baseSha: await branchSha(repo, "main") });
    expect(await currentBranch(created.path)).toBe("ringmaster/1-fix");
    expect(await branchSha(repo, "ringmaster/1-fix")).toBe(await branchSha(repo, "main"));
    expect(await currentBranch(repo)).toBe("main");
    await expect(git(repo, ["config", "--get-regexp", "^branch\\."])).rejects.toThrow();
  });

  it("takes the first free numbered name and keeps the old branches", async () => {
    const { repo, worktrees } = await makeSandbox();
    const old = await branchSha(repo, "main");
    await git(repo, ["branch", "ringmaster/1-fix", old]);
    await git(repo, ["branch", "ringmaster/1-fix-2", old]);
    await git(repo, ["branch", "ringmaster/1-fixed", old]);
    const tip = await commitFiles(repo, { "more.txt": "m" }, "base moves on");
    const created = await createFreshWorktree({ repoPath: repo, name: "ringmaster/1-fix", baseBranch: "main", pathOf: pathIn(worktrees) });
    expect(created.branch).toBe("ringmaster/1-fix-3");
    expect(created.baseSha).toBe(tip);
    expect(await branchSha(repo, "ringmaster/1-fix")).toBe(old);
  });

  it("goes the careful way when a leftover folder takes the path", async () => {
    const { repo, worktrees } = await makeSandbox();
    // A folder left where the new worktree goes: `worktree add` refuses, createWorktree explains.
    await mkdir(join(worktrees, "ringmaster_2-x"), { recursive: true });
    await writeFile(join(worktrees, "ringmaster_2-x", "junk.txt"), "j");
    await expect(createFreshWorktree({ repoPath: repo, name: "ringmaster/2-x", baseBranch: "main", pathOf: pathIn(worktrees) })).rejects.toThrow(/already exists/);
    // The branch the first attempt made is the one a later careful call continues on.
    expect(await branchSha(repo, "ringmaster/2-x")).toBe(await branchSha(repo, "main"));
  });

  it("refuses a missing base branch", async () => {
    const { repo, worktrees } = await makeSandbox();
    await expect(createFreshWorktree({ repoPath: repo, name: "ringmaster/3-y", baseBranch: "nope", pathOf: pathIn(worktrees) })).rejects.toThrow(/base branch nope does not exist/);
  });

  it("finds the same branch and worktree the careful way for a retry", async () => {
    const { repo, worktrees } = await makeSandbox();
    const fresh = await createFreshWorktree({ repoPath: repo, name: "ringmaster/4-z", baseBranch: "main", pathOf: pathIn(worktrees) });
    expect(await createWorktree({ repoPath: repo, path: fresh.path, branch: fresh.branch, baseBranch: "main" })).toEqual(fresh);
  });
});
