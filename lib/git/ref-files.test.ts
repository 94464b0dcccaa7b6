import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBranchTips } from "@/lib/git/ref-files";
import { branchSha } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox } from "@/lib/git/testing";

describe("readBranchTips", () => {
  it("reads loose and packed branches as git does, and a missing one as null", async () => {
    const { repo } = await makeSandbox();
    const first = await branchSha(repo, "main");
    await git(repo, ["branch", "ringmaster/1-a"]);
    await git(repo, ["tag", "-a", "-m", "t", "v1"]);
    await git(repo, ["pack-refs", "--all"]);
    const second = await commitFiles(repo, { "b.txt": "b\n" }, "second");
    // main is loose again (newer than its packed line), ringmaster/1-a only packed.
    const tips = await readBranchTips(repo, ["main", "ringmaster/1-a", "ringmaster/2-b", "ringmaster", "main/x"]);
    expect(tips).toEqual(new Map([["main", second], ["ringmaster/1-a", first], ["ringmaster/2-b", null], ["ringmaster", null], ["main/x", null]]));
  });

  it("reads a bare clone's refs", async () => {
    const { repo, worktrees } = await makeSandbox();
    const clone = join(worktrees, "clone.git");
    await git(repo, ["clone", "--quiet", "--bare", "--", repo, clone]);
    expect(await readBranchTips(clone, ["main", "nope"])).toEqual(new Map([["main", await branchSha(repo, "main")], ["nope", null]]));
  });

  it("does not answer for what only git can: a symbolic branch, a linked worktree's path", async () => {
    const { repo, worktrees } = await makeSandbox();
    await git(repo, ["symbolic-ref", "refs/heads/alias", "refs/heads/main"]);
    expect(await readBranchTips(repo, ["main", "alias"])).toBeNull();
    const linked = join(worktrees, "linked");
    await git(repo, ["worktree", "add", "--quiet", "--detach", "--", linked, "main"]);
    expect(await readBranchTips(linked, ["main"])).toBeNull();
  });
});
