import { describe, expect, it } from "vitest";
import { branchExists, branchSha, commitsAhead, currentBranch, hasUnmergedCommits, headSha, isClean } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox, writeFiles } from "@/lib/git/testing";

describe("refs", () => {
  it("reads the current branch, null when detached", async () => {
    const { repo } = await makeSandbox();
    expect(await currentBranch(repo)).toBe("main");
    await git(repo, ["switch", "--quiet", "--detach"]);
    expect(await currentBranch(repo)).toBeNull();
  });

  it("knows which branches exist and where they point", async () => {
    const { repo } = await makeSandbox();
    expect(await branchExists(repo, "main")).toBe(true);
    expect(await branchExists(repo, "nope")).toBe(false);
    expect(await branchSha(repo, "main")).toBe(await headSha(repo));
    expect(await headSha(repo)).toMatch(/^[0-9a-f]{40}$/);
    await expect(branchSha(repo, "nope")).rejects.toThrow(/refs\/heads\/nope/);
  });

  it("counts untracked files as changes unless told not to", async () => {
    const { repo } = await makeSandbox();
    expect(await isClean(repo)).toBe(true);
    await writeFiles(repo, { "new.txt": "x" });
    expect(await isClean(repo)).toBe(false);
    expect(await isClean(repo, { untracked: false })).toBe(true);
    await writeFiles(repo, { "README.md": "edited\n" });
    expect(await isClean(repo, { untracked: false })).toBe(false);
  });

  it("counts commits ahead of the base branch", async () => {
    const { repo } = await makeSandbox();
    await git(repo, ["switch", "--quiet", "-c", "feature"]);
    expect(await commitsAhead(repo, "feature", "main")).toBe(0);
    expect(await hasUnmergedCommits(repo, "feature", "main")).toBe(false);
    await commitFiles(repo, { "a.txt": "a" }, "a");
    await commitFiles(repo, { "b.txt": "b" }, "b");
    expect(await commitsAhead(repo, "feature", "main")).toBe(2);
    expect(await hasUnmergedCommits(repo, "feature", "main")).toBe(true);
  });
});
