import { access, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { branchExists } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox, writeFiles } from "@/lib/git/testing";
import { createWorktree } from "@/lib/git/worktree-create";
import { listWorktrees } from "@/lib/git/worktree-list";
import { removeWorktree, UnmergedWorkError } from "@/lib/git/worktree-remove";

const exists = (path: string) => access(path).then(() => true, () => false);
const branch = "ringmaster/1-x";

async function runWorktree() {
  const { repo, worktrees } = await makeSandbox();
  const { path } = await createWorktree({ repoPath: repo, path: join(worktrees, "r"), branch, baseBranch: "main" });
  return { repo, path, input: { repoPath: repo, path, branch, baseBranch: "main" } };
}

describe("removeWorktree", () => {
  it("removes a worktree whose work is merged and deletes its branch", async () => {
    const { repo, path, input } = await runWorktree();
    await commitFiles(path, { "a.txt": "a" }, "work");
    await git(repo, ["merge", "--quiet", "--ff-only", branch]);
    expect(await removeWorktree(input)).toEqual({ branchDeleted: true });
    expect(await exists(path)).toBe(false);
    expect(await branchExists(repo, branch)).toBe(false);
    expect(await listWorktrees(repo)).toHaveLength(1);
  });

  it("refuses to delete unmerged commits", async () => {
    const { repo, path, input } = await runWorktree();
    await commitFiles(path, { "a.txt": "a" }, "work");
    const error = await removeWorktree(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmergedWorkError);
    expect((error as Error).message).toBe(`${branch} has 1 commit(s) not in main; merge it or discard it deliberately`);
    expect(await exists(join(path, "a.txt"))).toBe(true);
    expect(await listWorktrees(repo)).toHaveLength(2);
  });

  it("refuses to drop uncommitted changes", async () => {
    const { path, input } = await runWorktree();
    await writeFiles(path, { "draft.txt": "d" });
    await expect(removeWorktree(input)).rejects.toThrow(/uncommitted changes/);
    expect(await exists(join(path, "draft.txt"))).toBe(true);
  });

  it("removes abandoned work when told to, keeping the branch and its commits", async () => {
    const { repo, path, input } = await runWorktree();
    const work = await commitFiles(path, { "a.txt": "a" }, "work");
    await writeFiles(path, { "draft.txt": "d" });
    expect(await removeWorktree({ ...input, discardUnmerged: true })).toEqual({ branchDeleted: false });
    expect(await exists(path)).toBe(false);
    expect(await git(repo, ["rev-parse", branch])).toBe(`${work}\n`);
  });

  it("prunes a worktree whose directory is already gone, and is idempotent", async () => {
    const { repo, path, input } = await runWorktree();
    await rm(path, { recursive: true });
    expect(await removeWorktree(input)).toEqual({ branchDeleted: true });
    expect(await removeWorktree(input)).toEqual({ branchDeleted: false });
    expect(await listWorktrees(repo)).toHaveLength(1);
  });

  it("refuses the base branch", async () => {
    const { repo, input } = await runWorktree();
    await expect(removeWorktree({ ...input, path: repo, branch: "main", discardUnmerged: true })).rejects.toThrow(/base branch/);
    expect(await branchExists(repo, "main")).toBe(true);
  });
});
