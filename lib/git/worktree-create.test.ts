import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { branchSha, currentBranch } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox } from "@/lib/git/testing";
import { createWorktree } from "@/lib/git/worktree-create";
import { listWorktrees } from "@/lib/git/worktree-list";

describe("createWorktree", () => {
  it("branches from the base branch's tip into a worktree outside the repository", async () => {
    const { repo, worktrees } = await makeSandbox();
    const path = join(worktrees, "project", "run-1");
    const created = await createWorktree({ repoPath: repo, path, branch: "ringmaster/1-fix", baseBranch: "main" });
    expect(created).toEqual({ path, branch: "ringmaster/1-fix", baseSha: await branchSha(repo, "main") });
    expect(await currentBranch(path)).toBe("ringmaster/1-fix");
    expect(await currentBranch(repo)).toBe("main");
    // No tracking config is written, so concurrent creations do not fight over config.lock.
    await expect(git(repo, ["config", "--get-regexp", "^branch\\."])).rejects.toThrow();
  });

  it("continues on an existing branch and reports where it left the base", async () => {
    const { repo, worktrees } = await makeSandbox();
    const first = await createWorktree({ repoPath: repo, path: join(worktrees, "a"), branch: "ringmaster/1-x", baseBranch: "main" });
    const work = await commitFiles(first.path, { "work.txt": "w" }, "work");
    await commitFiles(repo, { "other.txt": "o" }, "base moves on");
    await git(repo, ["worktree", "remove", first.path]);

    const retry = await createWorktree({ repoPath: repo, path: join(worktrees, "b"), branch: "ringmaster/1-x", baseBranch: "main" });
    expect(await git(retry.path, ["rev-parse", "HEAD"])).toBe(`${work}\n`);
    expect(retry.baseSha).toBe(first.baseSha);
  });

  it("is idempotent for the same path and branch", async () => {
    const { repo, worktrees } = await makeSandbox();
    const input = { repoPath: repo, path: join(worktrees, "r"), branch: "ringmaster/2-y", baseBranch: "main" };
    const first = await createWorktree(input);
    expect(await createWorktree(input)).toEqual(first);
    expect(await listWorktrees(repo)).toHaveLength(2);
  });

  it("refuses a path taken by another branch or a branch held by another live worktree", async () => {
    const { repo, worktrees } = await makeSandbox();
    const path = join(worktrees, "r");
    await createWorktree({ repoPath: repo, path, branch: "ringmaster/1-a", baseBranch: "main" });
    await expect(createWorktree({ repoPath: repo, path, branch: "ringmaster/2-b", baseBranch: "main" })).rejects.toThrow(
      /already exists for ringmaster\/1-a/,
    );
    await expect(
      createWorktree({ repoPath: repo, path: join(worktrees, "other"), branch: "ringmaster/1-a", baseBranch: "main" }),
    ).rejects.toThrow(/already checked out/);
  });

  it("recovers a branch whose old worktree directory was deleted", async () => {
    const { repo, worktrees } = await makeSandbox();
    const old = await createWorktree({ repoPath: repo, path: join(worktrees, "old"), branch: "ringmaster/1-a", baseBranch: "main" });
    await rm(old.path, { recursive: true });
    const created = await createWorktree({ repoPath: repo, path: join(worktrees, "new"), branch: "ringmaster/1-a", baseBranch: "main" });
    expect(await currentBranch(created.path)).toBe("ringmaster/1-a");
  });

  it("refuses the base branch and paths inside the repository", async () => {
    const { repo, worktrees } = await makeSandbox();
    await expect(createWorktree({ repoPath: repo, path: join(worktrees, "r"), branch: "main", baseBranch: "main" })).rejects.toThrow(
      /base branch/,
    );
    await expect(createWorktree({ repoPath: repo, path: join(repo, "wt"), branch: "ringmaster/1-a", baseBranch: "main" })).rejects.toThrow(
      /outside the repository/,
    );
    expect(await listWorktrees(repo)).toHaveLength(1);
  });

  it("creates five worktrees of one repository at once", async () => {
    const { repo, worktrees } = await makeSandbox();
    const runs = [1, 2, 3, 4, 5].map((n) => ({ repoPath: repo, path: join(worktrees, `run-${n}`), branch: `ringmaster/${n}-x`, baseBranch: "main" }));
    const created = await Promise.all(runs.map((run) => createWorktree(run)));
    expect(created.map((c) => c.branch)).toEqual(runs.map((r) => r.branch));
    const listed = await listWorktrees(repo);
    expect(listed.map((w) => w.branch).sort()).toEqual(["main", ...runs.map((r) => r.branch)].sort());
    for (const run of runs) expect(await currentBranch(run.path)).toBe(run.branch);
  });
});
