import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rebaseOntoBase } from "@/lib/git/rebase";
import { headSha, isAncestor, isClean } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox, writeFiles } from "@/lib/git/testing";
import { createWorktree } from "@/lib/git/worktree-create";

async function runWorktree() {
  const { repo, worktrees } = await makeSandbox();
  const { path } = await createWorktree({ repoPath: repo, path: join(worktrees, "r"), branch: "ringmaster/1-x", baseBranch: "main" });
  return { repo, path };
}

describe("rebaseOntoBase", () => {
  it("replays the run's commits on the base branch's tip", async () => {
    const { repo, path } = await runWorktree();
    await commitFiles(path, { "a.txt": "a\n" }, "run work");
    const baseTip = await commitFiles(repo, { "b.txt": "b\n" }, "base work");

    const result = await rebaseOntoBase(path, "main");
    expect(result).toEqual({ ok: true, sha: await headSha(path) });
    expect(await isAncestor(repo, baseTip, await headSha(path))).toBe(true);
    expect(await git(path, ["log", "--format=%s", "main..HEAD"])).toBe("run work\n");
  });

  it("aborts on a conflict and leaves the branch as it was", async () => {
    const { repo, path } = await runWorktree();
    const before = await commitFiles(path, { "README.md": "run\n" }, "run edit");
    await commitFiles(repo, { "README.md": "base\n" }, "base edit");

    const result = await rebaseOntoBase(path, "main");
    expect(result).toEqual({ ok: false, conflict: "rebasing ringmaster/1-x onto main conflicts in README.md", files: ["README.md"] });
    expect(await headSha(path)).toBe(before);
    expect(await git(path, ["symbolic-ref", "HEAD"])).toBe("refs/heads/ringmaster/1-x\n");
    expect(await isClean(path)).toBe(true);
    expect(await git(path, ["show", "HEAD:README.md"])).toBe("run\n");
  });

  it("refuses uncommitted changes and the base branch", async () => {
    const { repo, path } = await runWorktree();
    await writeFiles(path, { "README.md": "dirty\n" });
    await expect(rebaseOntoBase(path, "main")).rejects.toThrow(/uncommitted changes/);
    await expect(rebaseOntoBase(repo, "main")).rejects.toThrow(/base branch/);
  });
});
