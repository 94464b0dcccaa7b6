import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBranchRef, readBranchTips } from "@/lib/git/ref-files";
import { branchExists, branchSha } from "@/lib/git/refs";
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

  it("finds a packed name whole: not inside a longer one, a comment or a peeled line", async () => {
    const { repo } = await makeSandbox();
    const tip = await branchSha(repo, "main");
    const other = await commitFiles(repo, { "o.txt": "o\n" }, "other");
    await git(repo, ["branch", "f/20000", tip]);
    await git(repo, ["branch", "f/4", other]);
    await git(repo, ["tag", "-a", "-m", "t", "refs/heads/f/2"]);
    await git(repo, ["pack-refs", "--all"]);
    const packed = join(repo, ".git", "packed-refs");
    const text = await readFile(packed, "utf8");
    // The comment git writes first, and a peeled line (^sha) after the tag's.
    expect(text).toMatch(/^# pack-refs with:/);
    expect(text).toMatch(/ refs\/tags\/refs\/heads\/f\/2\n\^[0-9a-f]{40}\n/);
    // A line git would not write, with a sha and the name after its comment mark.
    await writeFile(packed, text.replace("# pack-refs", `# ${other} refs/heads/f/3 pack-refs`));
    expect(await readBranchTips(repo, ["f/20000", "f/2000", "f/2", "f/3", "f/4", "f"])).toEqual(
      new Map([["f/20000", tip], ["f/2000", null], ["f/2", null], ["f/3", null], ["f/4", other], ["f", null]]));
    // In the way of a new name: a packed ref at a folder of it, or under it; not one that begins alike.
    expect(createBranchRef(repo, "f/4/x", tip)).toBe(false);
    expect(createBranchRef(repo, "f", tip)).toBe(false);
    expect(createBranchRef(repo, "f/200", tip)).toBe(true);
    expect(createBranchRef(repo, "f/3", tip)).toBe(true);
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

describe("createBranchRef", () => {
  it("makes a branch git reads, with no reflog, and leaves no lock", async () => {
    const { repo } = await makeSandbox();
    const tip = await branchSha(repo, "main");
    expect(await createBranchRef(repo, "ringmaster/1-a", tip)).toBe(true);
    expect(await branchSha(repo, "ringmaster/1-a")).toBe(tip);
    expect((await git(repo, ["for-each-ref", "--format=%(refname)", "refs/heads/ringmaster"])).trim()).toBe("refs/heads/ringmaster/1-a");
    expect(existsSync(join(repo, ".git", "refs", "heads", "ringmaster", "1-a.lock"))).toBe(false);
    expect(existsSync(join(repo, ".git", "logs", "refs", "heads", "ringmaster", "1-a"))).toBe(false);
    // git works on it as on its own: a commit there moves it.
    await git(repo, ["checkout", "-q", "ringmaster/1-a"]);
    const next = await commitFiles(repo, { "n.txt": "n\n" }, "next");
    expect(await branchSha(repo, "ringmaster/1-a")).toBe(next);
  });

  it("makes nothing where git would refuse: the branch exists (loose or packed), a ref is in the way of its name, or its lock is held", async () => {
    const { repo } = await makeSandbox();
    const tip = await branchSha(repo, "main");
    const other = await commitFiles(repo, { "o.txt": "o\n" }, "other");
    await git(repo, ["branch", "taken", tip]);
    await git(repo, ["branch", "packed/one", tip]);
    await git(repo, ["branch", "file", tip]);
    await git(repo, ["branch", "dir/inner", tip]);
    await git(repo, ["pack-refs", "--all"]);
    await git(repo, ["branch", "loose", tip]);
    const refsBefore = (await git(repo, ["for-each-ref", "--format=%(objectname) %(refname)"])).trim();
    // The branch exists: loose, packed.
    expect(await createBranchRef(repo, "loose", other)).toBe(false);
    expect(await createBranchRef(repo, "taken", other)).toBe(false);
    // A ref where its folder goes (packed `file`), refs under its name (packed `dir/inner`).
    expect(await createBranchRef(repo, "file/sub", other)).toBe(false);
    expect(await createBranchRef(repo, "dir", other)).toBe(false);
    // A loose ref where its folder goes, and a loose one under its name.
    expect(await createBranchRef(repo, "loose/sub", other)).toBe(false);
    await git(repo, ["branch", "deep/er/x", tip]);
    expect(await createBranchRef(repo, "deep/er", other)).toBe(false);
    // Another writer holds the lock: it stays that writer's.
    const lock = join(repo, ".git", "refs", "heads", "held.lock");
    await writeFile(lock, "");
    expect(await createBranchRef(repo, "held", other)).toBe(false);
    expect(await readFile(lock, "utf8")).toBe("");
    expect(await branchExists(repo, "held")).toBe(false);
    const lines = (text: string) => text.trim().split("\n").sort();
    expect(lines(await git(repo, ["for-each-ref", "--format=%(objectname) %(refname)"]))).toEqual(lines(`${refsBefore}\n${tip} refs/heads/deep/er/x`));
    // Not a sha: git is asked instead.
    expect(await createBranchRef(repo, "bad", "HEAD")).toBeNull();
  });

  it("does not answer where only git can: a linked worktree's path", async () => {
    const { repo, worktrees } = await makeSandbox();
    const linked = join(worktrees, "linked");
    await git(repo, ["worktree", "add", "--quiet", "--detach", "--", linked, "main"]);
    expect(await createBranchRef(linked, "x", await branchSha(repo, "main"))).toBeNull();
  });
});
