import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitFiles, makeSandbox } from "@/lib/git/testing";
import { git } from "@/lib/git/run";
import { createWorktree } from "@/lib/git/worktree-create";
import { ensureBareClone, fetchBranch, pushBranch } from "@/lib/git/push";
import { RunBranchError } from "@/lib/git/branch-name";

async function remoteAndClone() {
  const { repo, worktrees } = await makeSandbox();
  const root = await realpath(await mkdtemp(join(tmpdir(), "rm-push-")));
  const remote = join(root, "remote.git");
  await git(root, ["clone", "--bare", "--quiet", repo, remote]);
  const clone = join(root, "clone.git");
  await ensureBareClone(clone, { url: remote });
  return { repo, remote, clone, worktrees };
}

describe("pushing a run's branch", () => {
  it("clones bare, branches a worktree off it and pushes the branch to the remote", async () => {
    const { remote, clone, worktrees } = await remoteAndClone();
    const wt = await createWorktree({ repoPath: clone, path: join(worktrees, "a"), branch: "ringmaster/1-a", baseBranch: "main" });
    const sha = await commitFiles(wt.path, { "a.txt": "a\n" }, "feat: a");
    expect(await pushBranch({ repoPath: clone, branch: "ringmaster/1-a", baseBranch: "main", auth: { url: remote } })).toBe(sha);
    expect((await git(remote, ["rev-parse", "refs/heads/ringmaster/1-a"])).trim()).toBe(sha);
    // A second clone call keeps the first.
    await ensureBareClone(clone, { url: remote });
    expect((await git(clone, ["rev-parse", "refs/heads/ringmaster/1-a"])).trim()).toBe(sha);
  });

  it("refuses the base branch, and a remote branch that moved on is not overwritten", async () => {
    const { repo, remote, clone, worktrees } = await remoteAndClone();
    await expect(pushBranch({ repoPath: clone, branch: "main", baseBranch: "main", auth: { url: remote } })).rejects.toThrow(RunBranchError);
    const wt = await createWorktree({ repoPath: clone, path: join(worktrees, "b"), branch: "ringmaster/2-b", baseBranch: "main" });
    await commitFiles(wt.path, { "b.txt": "b\n" }, "feat: b");
    await pushBranch({ repoPath: clone, branch: "ringmaster/2-b", baseBranch: "main", auth: { url: remote } });
    // Someone else pushes to the branch; our next commit does not fast-forward.
    await git(repo, ["fetch", "--quiet", remote, "ringmaster/2-b:other"]);
    const theirs = await git(repo, ["commit-tree", "-p", "other", "-m", "theirs", "other^{tree}"]);
    await git(repo, ["push", "--quiet", remote, `${theirs.trim()}:refs/heads/ringmaster/2-b`]);
    await commitFiles(wt.path, { "b2.txt": "b\n" }, "feat: b2");
    await expect(pushBranch({ repoPath: clone, branch: "ringmaster/2-b", baseBranch: "main", auth: { url: remote } })).rejects.toThrow(/rejected|fetch first|non-fast-forward/);
    expect((await git(remote, ["rev-parse", "refs/heads/ringmaster/2-b"])).trim()).toBe(theirs.trim());
  });

  it("fetches the base branch as the remote has it", async () => {
    const { repo, remote, clone } = await remoteAndClone();
    const sha = await commitFiles(repo, { "new.txt": "x\n" }, "upstream change");
    await git(repo, ["push", "--quiet", remote, "main"]);
    expect(await fetchBranch(clone, "main", { url: remote })).toBe(sha);
  });
});
