import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitAll } from "@/lib/git/commit";
import { headSha } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox, writeFiles } from "@/lib/git/testing";
import { createWorktree } from "@/lib/git/worktree-create";

async function runWorktree() {
  const { repo, worktrees } = await makeSandbox();
  const { path } = await createWorktree({ repoPath: repo, path: join(worktrees, "r"), branch: "ringmaster/1-x", baseBranch: "main" });
  await commitFiles(path, { "keep.txt": "keep\n", "edit.txt": "old\n", "gone.txt": "bye\n" }, "fixtures");
  return { repo, path };
}

describe("commitAll", () => {
  it("commits additions, edits and deletions on the run's branch", async () => {
    const { repo, path } = await runWorktree();
    const mainBefore = await headSha(repo);
    await writeFiles(path, { "edit.txt": "new\n", "dir/added.txt": "added\n" });
    await rm(join(path, "gone.txt"));

    const sha = await commitAll(path, "agent: step 1", "main");
    expect(sha).toBe(await headSha(path));
    expect(await git(path, ["show", "--name-status", "--format=%s|%an", "HEAD"])).toBe(
      "agent: step 1|Ringmaster\n\nA\tdir/added.txt\nM\tedit.txt\nD\tgone.txt\n",
    );
    expect(await git(path, ["status", "--porcelain"])).toBe("");
    expect(await headSha(repo)).toBe(mainBefore);
  });

  it("returns null and commits nothing when nothing changed", async () => {
    const { path } = await runWorktree();
    const before = await headSha(path);
    expect(await commitAll(path, "nothing", "main")).toBeNull();
    expect(await headSha(path)).toBe(before);
  });

  it("refuses to commit on the base branch or a detached HEAD", async () => {
    const { repo, path } = await runWorktree();
    const mainBefore = await headSha(repo);
    await writeFiles(repo, { "README.md": "edited\n" });
    await expect(commitAll(repo, "sneaky", "main")).rejects.toThrow(/base branch "main"/);
    expect(await headSha(repo)).toBe(mainBefore);
    expect(await git(repo, ["diff", "--cached", "--name-only"])).toBe("");

    await git(path, ["switch", "--quiet", "--detach"]);
    await writeFiles(path, { "x.txt": "x" });
    await expect(commitAll(path, "lost", "main")).rejects.toThrow(/detached HEAD/);
  });

  it("refuses an empty message", async () => {
    const { path } = await runWorktree();
    await expect(commitAll(path, " ", "main")).rejects.toThrow(/message/);
  });
});
