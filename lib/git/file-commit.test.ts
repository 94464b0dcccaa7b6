import { describe, expect, it } from "vitest";
import { commitFileToBranch, readBlob } from "@/lib/git/file-commit";
import { branchSha } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { makeSandbox } from "@/lib/git/testing";

const input = (repoPath: string, content: string) =>
  ({ repoPath, branch: "ringmaster/campaign-x", baseBranch: "main", path: ".campaign/state.json", content, message: `state ${content.trim()}` });

describe("commitFileToBranch", () => {
  it("creates the branch from the base, commits only when the content changes, and never moves the base", async () => {
    const { repo } = await makeSandbox();
    const base = await branchSha(repo, "main");
    const first = await commitFileToBranch(input(repo, "one\n"));
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect((await git(repo, ["rev-parse", `${first}^`])).trim()).toBe(base);
    expect(await commitFileToBranch(input(repo, "one\n"))).toBeNull();
    const second = await commitFileToBranch(input(repo, "two\n"));
    expect((await git(repo, ["rev-parse", `${second}^`])).trim()).toBe(first);
    expect(await readBlob(repo, second!, ".campaign/state.json")).toBe("two\n");
    expect(await branchSha(repo, "main")).toBe(base);
  });

  it("writers racing on one branch all land, each on the one before: none is lost to the compare-and-swap", async () => {
    const { repo } = await makeSandbox();
    await commitFileToBranch(input(repo, "start\n"));
    const contents = ["a\n", "b\n", "c\n", "d\n"];
    const commits = await Promise.all(contents.map((c) => commitFileToBranch(input(repo, c))));
    expect(commits.every((c) => typeof c === "string")).toBe(true);
    // The branch's history holds every write once, in a line: no write replaced another's commit.
    const log = (await git(repo, ["log", "--format=%s", "ringmaster/campaign-x"])).trim().split("\n");
    expect(log.slice(0, 4).sort()).toEqual(["state a", "state b", "state c", "state d"]);
    expect(log[4]).toBe("state start");
    const tip = await branchSha(repo, "ringmaster/campaign-x");
    expect(await readBlob(repo, tip, ".campaign/state.json")).toBe(`${log[0].slice("state ".length)}\n`);
  });

  it("a failure that is not a lost swap is thrown, not retried into success", async () => {
    const { repo } = await makeSandbox();
    await expect(commitFileToBranch({ ...input(repo, "x\n"), baseBranch: "no-such-base" })).rejects.toThrow(/no-such-base/);
  });
});

describe("commitFileToBranch with content read at write time", () => {
  it("reads the content again after a lost swap, and the branch's tip holds the newest content read", async () => {
    const { repo } = await makeSandbox();
    await commitFileToBranch(input(repo, "v0\n"));
    let version = 0;
    // The content moves on with every read, as a database row would under concurrent updates.
    const writer = () => commitFileToBranch({ ...input(repo, ""), content: async () => `v${++version}\n`, message: () => `state v${version}` });
    const commits = await Promise.all([writer(), writer(), writer(), writer()]);
    expect(commits.every((c) => typeof c === "string")).toBe(true);
    const tip = await branchSha(repo, "ringmaster/campaign-x");
    expect(await readBlob(repo, tip, ".campaign/state.json")).toBe(`v${version}\n`);
    const landed = (await git(repo, ["log", "--format=%s", "ringmaster/campaign-x"])).trim().split("\n");
    expect(landed).toHaveLength(5 + 1);
  });
});
