import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mergeIntoBase } from "@/lib/git/merge";
import { branchSha, headSha } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox, writeFiles } from "@/lib/git/testing";
import { createWorktree } from "@/lib/git/worktree-create";

const branch = "ringmaster/1-x";

async function finishedRun() {
  const { repo, worktrees } = await makeSandbox();
  const { path } = await createWorktree({ repoPath: repo, path: join(worktrees, "r"), branch, baseBranch: "main" });
  const base = await branchSha(repo, "main");
  const tip = await commitFiles(path, { "feature.txt": "feature\n" }, "run work");
  return { repo, worktrees, path, base, tip, input: { repoPath: repo, branch, baseBranch: "main" } };
}

describe("mergeIntoBase", () => {
  it("fast-forwards a clean checked-out base in its working tree", async () => {
    const { repo, tip, input } = await finishedRun();
    expect(await mergeIntoBase(input)).toEqual({ ok: true, sha: tip });
    expect(await headSha(repo)).toBe(tip);
    expect(await readFile(join(repo, "feature.txt"), "utf8")).toBe("feature\n");
    expect(await git(repo, ["status", "--porcelain"])).toBe("");
  });

  it("leaves a checked-out base with uncommitted changes alone", async () => {
    const { repo, base, input } = await finishedRun();
    await writeFiles(repo, { "README.md": "user's edit\n" });
    expect(await mergeIntoBase(input)).toEqual({ ok: false, reason: "base checked out with uncommitted changes" });
    expect(await branchSha(repo, "main")).toBe(base);
    expect(await readFile(join(repo, "README.md"), "utf8")).toBe("user's edit\n");
  });

  it("refuses when an untracked file of the user's would be overwritten", async () => {
    const { repo, base, input } = await finishedRun();
    await writeFiles(repo, { "feature.txt": "user's own\n" });
    expect(await mergeIntoBase(input)).toEqual({ ok: false, reason: "untracked files in the way" });
    expect(await branchSha(repo, "main")).toBe(base);
    expect(await readFile(join(repo, "feature.txt"), "utf8")).toBe("user's own\n");
  });

  it("moves the ref alone when the base is not checked out", async () => {
    const { repo, tip, input } = await finishedRun();
    await git(repo, ["switch", "--quiet", "-c", "user-branch"]);
    await writeFiles(repo, { "README.md": "user's edit\n" });
    expect(await mergeIntoBase(input)).toEqual({ ok: true, sha: tip });
    expect(await branchSha(repo, "main")).toBe(tip);
    expect(await readFile(join(repo, "README.md"), "utf8")).toBe("user's edit\n");
  });

  it("moves the ref of a bare repository", async () => {
    const { repo, worktrees } = await makeSandbox();
    const bare = join(worktrees, "bare.git");
    await git(repo, ["clone", "--quiet", "--bare", repo, bare]);
    const { path } = await createWorktree({ repoPath: bare, path: join(worktrees, "r"), branch, baseBranch: "main" });
    const tip = await commitFiles(path, { "a.txt": "a" }, "work");
    expect(await mergeIntoBase({ repoPath: bare, branch, baseBranch: "main" })).toEqual({ ok: true, sha: tip });
    expect(await branchSha(bare, "main")).toBe(tip);
  });

  it("asks for a rebase when the branch is not a fast-forward", async () => {
    const { repo, input } = await finishedRun();
    const moved = await commitFiles(repo, { "other.txt": "o" }, "base moves on");
    expect(await mergeIntoBase(input)).toEqual({ ok: false, reason: "not a fast-forward" });
    expect(await branchSha(repo, "main")).toBe(moved);
  });

  it("fails the compare-and-swap when the base moved since the caller looked", async () => {
    const { repo, path, base, input } = await finishedRun();
    const halfway = await headSha(path);
    await commitFiles(path, { "more.txt": "m" }, "more work");
    await git(repo, ["switch", "--quiet", "--detach"]);
    await git(repo, ["update-ref", "refs/heads/main", halfway]);
    expect(await mergeIntoBase({ ...input, expectedBaseSha: base })).toEqual({ ok: false, reason: "base moved" });
    expect(await branchSha(repo, "main")).toBe(halfway);
  });

  it("reports a moved base where it is checked out too", async () => {
    const { repo, path, base, input } = await finishedRun();
    await commitFiles(path, { "more.txt": "m" }, "more work");
    await git(repo, ["merge", "--quiet", "--ff-only", `${branch}~1`]);
    expect(await mergeIntoBase({ ...input, expectedBaseSha: base })).toEqual({ ok: false, reason: "base moved" });
  });

  it("leaves a base that is being rebased alone", async () => {
    const { repo, path, base, input } = await finishedRun();
    await commitFiles(repo, { "README.md": "one\n" }, "one");
    await git(path, ["rebase", "--quiet", "main"]);
    await git(repo, ["switch", "--quiet", "-c", "side", base]);
    await commitFiles(repo, { "README.md": "two\n" }, "two");
    await git(repo, ["switch", "--quiet", "main"]);
    await expect(git(repo, ["rebase", "--quiet", "side"])).rejects.toThrow(/could not apply/);
    const before = await git(repo, ["rev-parse", "refs/heads/main"]);
    expect(await mergeIntoBase(input)).toEqual({ ok: false, reason: "base checked out with uncommitted changes" });
    expect(await git(repo, ["rev-parse", "refs/heads/main"])).toBe(before);
  });

  it("refuses to merge the base branch into itself", async () => {
    const { input } = await finishedRun();
    await expect(mergeIntoBase({ ...input, branch: "main" })).rejects.toThrow(/base branch/);
  });
});
