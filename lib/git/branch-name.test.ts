import { describe, expect, it } from "vitest";
import { assertNotBaseBranch, requireRunBranch, runBranchName, RunBranchError } from "@/lib/git/branch-name";
import { git } from "@/lib/git/run";
import { makeSandbox } from "@/lib/git/testing";

describe("runBranchName", () => {
  it("is ringmaster/<number>-<slug>", () => {
    expect(runBranchName(42, "Fix the login form!")).toBe("ringmaster/42-fix-the-login-form");
  });

  it("keeps the slug to lowercase ASCII and dashes", () => {
    expect(runBranchName(7, "  Crème brûlée: ÜBER__fast / déjà vu  ")).toBe("ringmaster/7-creme-brulee-uber-fast-deja-vu");
    expect(runBranchName(8, "日本語のタイトル")).toBe("ringmaster/8");
  });

  it("cuts the slug at 40 characters without a trailing dash", () => {
    const name = runBranchName(3, "a".repeat(39) + " bbbbbbbb");
    expect(name).toBe(`ringmaster/3-${"a".repeat(39)}`);
    const slug = runBranchName(4, "word ".repeat(30)).slice("ringmaster/4-".length);
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).not.toMatch(/-$/);
  });

  it("produces names git accepts", async () => {
    await expect(assertNotBaseBranch(runBranchName(12, "..lock @{ weird~^:?*[ \\ title.lock"), "main")).resolves.toBeUndefined();
  });

  it("refuses numbers that are not positive integers", () => {
    expect(() => runBranchName(0, "x")).toThrow(/positive integer/);
    expect(() => runBranchName(1.5, "x")).toThrow(/positive integer/);
  });
});

describe("assertNotBaseBranch", () => {
  it("accepts a run branch", async () => {
    await expect(assertNotBaseBranch("ringmaster/1-fix", "main")).resolves.toBeUndefined();
  });

  it.each([
    ["the base branch", "main"],
    ["the base branch as a full ref", "refs/heads/main"],
    ["the base branch in another case", "Main"],
    ["HEAD", "HEAD"],
    ["an empty name", ""],
    ["a blank name", "  "],
    ["an option", "-D"],
    ["an invalid ref", "a..b"],
    ["a reflog shorthand", "@{-1}"],
    ["a name ending in .lock", "x.lock"],
  ])("refuses %s", async (_, branch) => {
    await expect(assertNotBaseBranch(branch, "main")).rejects.toBeInstanceOf(RunBranchError);
  });

  it("says why it refuses the base branch", async () => {
    await expect(assertNotBaseBranch("main", "main")).rejects.toThrow('refusing to work on the base branch "main"');
  });
});

describe("requireRunBranch", () => {
  it("returns the checked-out branch and refuses the base branch or a detached HEAD", async () => {
    const { repo } = await makeSandbox();
    await expect(requireRunBranch(repo, "main")).rejects.toThrow(/base branch/);
    await git(repo, ["switch", "--quiet", "-c", "ringmaster/1-x"]);
    expect(await requireRunBranch(repo, "main")).toBe("ringmaster/1-x");
    await git(repo, ["switch", "--quiet", "--detach"]);
    await expect(requireRunBranch(repo, "main")).rejects.toThrow(/detached HEAD/);
  });
});
