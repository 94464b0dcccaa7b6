import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, realpath, rename, rm, utimes, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitAll } from "@/lib/git/commit";
import { branchExists, branchSha, currentBranch, headSha, isClean } from "@/lib/git/refs";
import { git } from "@/lib/git/run";
import { commitFiles, makeSandbox } from "@/lib/git/testing";
import { createFreshWorktree } from "@/lib/git/worktree-fresh";
import { listWorktrees } from "@/lib/git/worktree-list";
import { adminDirOf, POOL_REASON } from "@/lib/git/worktree-pool-entry";
import { drainPool, fillPool } from "@/lib/git/worktree-pool-fill";
import { startFromPool } from "@/lib/git/worktree-pool-take";

const pathIn = (root: string) => (branch: string) => join(root, branch.replaceAll("/", "_"));
const ready = async (pool: string) => (await readdir(join(pool, "ready"))).sort();
// The admin entry's name is the folder's name when git added it: a pooled worktree keeps its pool name.
const adminName = async (worktree: string) => basename(await adminDirOf(worktree));
// What git itself says of a worktree's folders and branch (what a take's `git` saves asking).
const askedGit = async (worktree: string) => {
  const [common, own, branchRef] = (await git(worktree, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--symbolic-full-name", "HEAD"])).trim().split("\n");
  return { commonDir: await realpath(common), worktreeDir: await realpath(own), branchRef };
};
// Which git entries the pool holds ready (a refreshed one keeps its entry under a new folder name).
const readyAdmins = async (pool: string) => (await Promise.all((await ready(pool)).map((n) => adminName(join(pool, "ready", n))))).sort();

async function pooled(size: number) {
  const { repo, worktrees } = await makeSandbox();
  const pool = join(worktrees, ".pool");
  const filled = await fillPool({ repoPath: repo, pool, baseBranch: "main", size });
  return { repo, worktrees, pool, filled, tip: await branchSha(repo, "main") };
}

describe("the worktree pool", () => {
  it("starts a new branch in a ready worktree at the base tip, a different one for each run", async () => {
    const { repo, worktrees, pool, filled, tip } = await pooled(2);
    expect(filled).toEqual({ added: 2, refreshed: 0, removed: 0 });
    const names = await ready(pool);
    expect(names.map((n) => n.slice(0, 41))).toEqual([`${tip}-`, `${tip}-`]);
    expect(await readyAdmins(pool)).toEqual(names);
    expect((await listWorktrees(repo)).filter((w) => w.locked).map((w) => [w.head, w.detached])).toEqual([[tip, true], [tip, true]]);

    const first = await createFreshWorktree({ repoPath: repo, name: "ringmaster/1-a", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect(first).toEqual({ path: join(worktrees, "ringmaster_1-a"), branch: "ringmaster/1-a", baseSha: tip, pooled: true, git: await askedGit(first.path) });
    const second = await createFreshWorktree({ repoPath: repo, name: "ringmaster/2-b", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect(second.path).toBe(join(worktrees, "ringmaster_2-b"));
    expect([await adminName(first.path), await adminName(second.path)].sort()).toEqual(names);
    expect(await ready(pool)).toEqual([]);
    for (const [wt, branch] of [[first, "ringmaster/1-a"], [second, "ringmaster/2-b"]] as const) {
      expect([await currentBranch(wt.path), await headSha(wt.path), await branchSha(repo, branch), await isClean(wt.path)]).toEqual([branch, tip, tip, true]);
    }
    // git knows them where they are now, unlocked, on their branches: a prune keeps them.
    await git(repo, ["worktree", "prune"]);
    const listed = (await listWorktrees(repo)).slice(1).map((w) => [w.path, w.branch, w.locked, w.prunable]);
    expect(listed.sort()).toEqual([[first.path, "ringmaster/1-a", false, false], [second.path, "ringmaster/2-b", false, false]]);
    // A commit there lands on the run's branch.
    await writeFile(join(first.path, "work.txt"), "work\n");
    const sha = await commitAll(first.path, "work", "main");
    expect(await branchSha(repo, "ringmaster/1-a")).toBe(sha);

    // The pool is empty: the next run checks out as before (its git entry is named after its folder).
    const third = await createFreshWorktree({ repoPath: repo, name: "ringmaster/3-c", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect([await adminName(third.path), await currentBranch(third.path), third.pooled]).toEqual(["ringmaster_3-c", "ringmaster/3-c", undefined]);
    expect(await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 2 })).toEqual({ added: 2, refreshed: 0, removed: 0 });
  });

  it("starts a numbered branch (the prompt's earlier one is kept) in a ready worktree too", async () => {
    const { repo, worktrees, pool, tip } = await pooled(1);
    await git(repo, ["branch", "ringmaster/1-a"]);
    const [entry] = await readyAdmins(pool);
    const run = await createFreshWorktree({ repoPath: repo, name: "ringmaster/1-a", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect(run).toEqual({ path: join(worktrees, "ringmaster_1-a-2"), branch: "ringmaster/1-a-2", baseSha: tip, pooled: true, git: await askedGit(run.path) });
    expect([await adminName(run.path), await currentBranch(run.path)]).toEqual([entry, "ringmaster/1-a-2"]);
  });

  it("brings a worktree of an earlier tip to the new one when the base moved (only the changed files), and the fill refreshes the pool there", async () => {
    const { repo, worktrees, pool, tip } = await pooled(2);
    const [stale, other] = await ready(pool);
    expect(stale.startsWith(`${tip}-`)).toBe(true);
    const entry = await adminName(join(pool, "ready", stale));
    const moved = await commitFiles(repo, { "later.txt": "later\n" }, "base moves on");
    const run = await createFreshWorktree({ repoPath: repo, name: "ringmaster/1-a", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    // The pooled worktree (its git entry), on the run's branch at the new tip, with the new file, nothing changed.
    expect([run.path, run.branch, run.baseSha, await headSha(run.path), await currentBranch(run.path), await branchSha(repo, "ringmaster/1-a"), await adminName(run.path), await isClean(run.path)])
      .toEqual([pathIn(worktrees)("ringmaster/1-a"), "ringmaster/1-a", moved, moved, "ringmaster/1-a", moved, entry, true]);
    expect(await readFile(join(run.path, "later.txt"), "utf8")).toBe("later\n");
    expect(await ready(pool)).toEqual([other]);

    expect(await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 2 })).toEqual({ added: 1, refreshed: 1, removed: 0 });
    const fresh = await ready(pool);
    expect(fresh.map((n) => n.startsWith(`${moved}-`))).toEqual([true, true]);
    expect(await readFile(join(pool, "ready", fresh[0], "later.txt"), "utf8")).toBe("later\n");
    const next = await createFreshWorktree({ repoPath: repo, name: "ringmaster/2-b", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect([await headSha(next.path), await isClean(next.path), await currentBranch(next.path)]).toEqual([moved, true, "ringmaster/2-b"]);
  });

  it("takes a worktree at the tip before one of an earlier tip", async () => {
    const { repo, worktrees, pool } = await pooled(1);
    const [old] = await ready(pool);
    const moved = await commitFiles(repo, { "later.txt": "later\n" }, "base moves on");
    // A second pool filled after the move lends its worktree (the same repository's) to the first.
    const other = join(worktrees, ".pool-2");
    await fillPool({ repoPath: repo, pool: other, baseBranch: "main", size: 1 });
    const [atTip] = await ready(other);
    const entry = await adminName(join(other, "ready", atTip));
    await rename(join(other, "ready", atTip), join(pool, "ready", atTip));
    const path = join(worktrees, "ringmaster_1");
    const gitDirs = { commonDir: join(await realpath(repo), ".git"), worktreeDir: join(await realpath(repo), ".git", "worktrees", entry) };
    expect(await startFromPool({ repoPath: repo, pool, branch: "ringmaster/1", tip: moved, path })).toEqual({ preparedAs: null, ...gitDirs });
    expect([await adminName(path), await headSha(path), await ready(pool)]).toEqual([entry, moved, [old]]);
  });

  it("prepares each worktree it adds or refreshes before it is ready, and a take at the tip says it still has that preparation", async () => {
    const { repo, worktrees } = await makeSandbox();
    const pool = join(worktrees, ".pool");
    const prepared: string[] = [];
    // What the sandbox does (its group's access); here a mark in the folder, seen by the take.
    const prepare = { tag: "g1234", run: async (at: string) => { prepared.push(at); await writeFile(join(at, ".git-prepared"), "yes"); } };
    expect(await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 2, prepare })).toEqual({ added: 2, refreshed: 0, removed: 0 });
    const names = await ready(pool);
    expect(names.map((n) => n.slice(41))).toEqual([expect.stringMatching(/^[0-9a-f]{8}\.g1234$/), expect.stringMatching(/^[0-9a-f]{8}\.g1234$/)]);
    // Prepared in building/, before a run could take it.
    expect(prepared.map((p) => basename(join(p, "..")))).toEqual(["building", "building"]);
    expect(prepared.map((p) => basename(p)).sort()).toEqual(names);

    const tip = await branchSha(repo, "main");
    const first = join(worktrees, "ringmaster_1");
    const [firstEntry] = await readyAdmins(pool);
    const common = join(await realpath(repo), ".git");
    expect(await startFromPool({ repoPath: repo, pool, branch: "ringmaster/1", tip, path: first })).toEqual({ preparedAs: "g1234", commonDir: common, worktreeDir: join(common, "worktrees", firstEntry) });
    // No reflog of the new branch is started by the take (the agent's first commit starts it, in the sandbox's group).
    expect(existsSync(join(common, "logs", "refs", "heads", "ringmaster", "1"))).toBe(false);
    expect(await readFile(join(first, ".git-prepared"), "utf8")).toBe("yes");
    await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 1, prepare });
    const second = await createFreshWorktree({ repoPath: repo, name: "ringmaster/2-b", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect(second).toEqual({ path: join(worktrees, "ringmaster_2-b"), branch: "ringmaster/2-b", baseSha: tip, pooled: true, preparedAs: "g1234", git: await askedGit(second.path) });

    // The base moved: a worktree of the earlier tip is checked out anew at the take, which changes files: not prepared any more.
    await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 1, prepare });
    const moved = await commitFiles(repo, { "later.txt": "later\n" }, "base moves on");
    const third = await createFreshWorktree({ repoPath: repo, name: "ringmaster/3-c", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect(third).toEqual({ path: join(worktrees, "ringmaster_3-c"), branch: "ringmaster/3-c", baseSha: moved, pooled: true, git: await askedGit(third.path) });

    // A refresh prepares again; an unprepared pool names no preparation.
    prepared.length = 0;
    await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 1 });
    const [plain] = await ready(pool);
    expect(plain.slice(41)).toMatch(/^[0-9a-f]{8}$/);
    await commitFiles(repo, { "again.txt": "again\n" }, "base moves again");
    expect(await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 1, prepare })).toEqual({ added: 0, refreshed: 1, removed: 0 });
    expect(prepared).toHaveLength(1);
    expect((await ready(pool))[0].slice(41)).toMatch(/^[0-9a-f]{8}\.g1234$/);
    await expect(fillPool({ repoPath: repo, pool, baseBranch: "main", size: 1, prepare: { tag: "a/b", run: prepare.run } })).rejects.toThrow("a pool preparation's tag must be letters, digits, _ and -: a/b");
  });

  it("leaves a branch that exists as it is when the worktree it would take is of an earlier tip", async () => {
    const { repo, worktrees, pool, tip } = await pooled(1);
    const moved = await commitFiles(repo, { "later.txt": "later\n" }, "base moves on");
    await git(repo, ["branch", "ringmaster/1", tip]);
    const path = join(worktrees, "ringmaster_1");
    expect(await startFromPool({ repoPath: repo, pool, branch: "ringmaster/1", tip: moved, path })).toBeNull();
    expect([existsSync(path), await branchSha(repo, "ringmaster/1"), await ready(pool), (await listWorktrees(repo)).length]).toEqual([false, tip, [], 1]);
  });

  it("works in a bare clone (a GitHub project's)", async () => {
    const { repo, worktrees } = await makeSandbox();
    const clone = join(worktrees, "clone.git");
    await git(worktrees.replace(/worktrees$/, ""), ["clone", "--quiet", "--bare", "--", repo, clone]);
    const pool = join(worktrees, ".pool");
    expect(await fillPool({ repoPath: clone, pool, baseBranch: "main", size: 1 })).toEqual({ added: 1, refreshed: 0, removed: 0 });
    const [entry] = await readyAdmins(pool);
    const run = await createFreshWorktree({ repoPath: clone, name: "ringmaster/1-a", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect([await adminName(run.path), await currentBranch(run.path), await headSha(run.path)]).toEqual([entry, "ringmaster/1-a", await branchSha(clone, "main")]);
  });

  it("gives each of many takers at once a different worktree, and the rest nothing", async () => {
    const { repo, worktrees, pool, tip } = await pooled(3);
    const names = await ready(pool);
    const takers = Array.from({ length: 8 }, (_, i) => ({ repoPath: repo, pool, branch: `ringmaster/${i + 1}`, tip, path: join(worktrees, `ringmaster_${i + 1}`) }));
    const took = await Promise.all(takers.map((t) => startFromPool(t)));
    expect(took.filter(Boolean).length).toBe(3);
    const winners = takers.filter((_, i) => took[i]);
    expect((await Promise.all(winners.map((t) => adminName(t.path)))).sort()).toEqual(names);
    for (const t of takers.filter((_, i) => !took[i])) expect([existsSync(t.path), await branchExists(repo, t.branch)]).toEqual([false, false]);
  });

  it("gives worker processes taking at once different worktrees", async () => {
    const { repo, worktrees, pool, tip } = await pooled(2);
    const names = await ready(pool);
    const go = join(worktrees, "go");
    const script = `
      import { existsSync } from "node:fs";
      import { startFromPool } from "@/lib/git/worktree-pool-take";
      const [repoPath, pool, tip, path, branch, go] = process.argv.slice(-6);
      console.log("ready");
      while (!existsSync(go)) await new Promise((r) => setTimeout(r, 1));
      console.log(JSON.stringify(await startFromPool({ repoPath, pool, branch, tip, path })));`;
    const children = Array.from({ length: 4 }, (_, i) => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, "--", repo, pool, tip, join(worktrees, `p${i}`), `ringmaster/p${i}`, go], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (c) => { out += c; });
      return {
        ready: new Promise<void>((resolve) => child.stdout.on("data", () => { if (out.includes("ready")) resolve(); })),
        took: new Promise<unknown>((resolve) => child.on("close", () => resolve(JSON.parse(out.split("\n").filter(Boolean).at(-1)!)))),
        path: join(worktrees, `p${i}`),
      };
    });
    await Promise.all(children.map((c) => c.ready));
    await writeFile(go, "");
    const took = await Promise.all(children.map((c) => c.took));
    expect(took.filter(Boolean).length).toBe(2);
    const taken = children.filter((_, i) => took[i]);
    expect((await Promise.all(taken.map((c) => adminName(c.path)))).sort()).toEqual(names);
  }, 60_000);

  it("does not hand out a worktree of another repository at the same commit (the project's path changed)", async () => {
    const { pool, tip } = await pooled(1);
    const other = await makeSandbox();
    expect(await branchSha(other.repo, "main")).toBe(tip);
    const path = join(other.worktrees, "ringmaster_1");
    expect(await startFromPool({ repoPath: other.repo, pool, branch: "ringmaster/1", tip, path })).toBeNull();
    expect([existsSync(path), await branchExists(other.repo, "ringmaster/1"), await ready(pool)]).toEqual([false, false, []]);
  });

  it("leaves a path git still has an entry for (its folder deleted behind git's back) to the careful way", async () => {
    const { repo, worktrees, pool } = await pooled(1);
    const path = join(worktrees, "ringmaster_1-a");
    await git(repo, ["worktree", "add", "--quiet", "-b", "other", "--", path, "main"]);
    await rm(path, { recursive: true });
    const run = await createFreshWorktree({ repoPath: repo, name: "ringmaster/1-a", baseBranch: "main", pathOf: pathIn(worktrees), pool });
    expect(run.path).toBe(path);
    const there = (await listWorktrees(repo)).filter((w) => w.path === path);
    expect(there.map((w) => [w.branch, w.prunable])).toEqual([["ringmaster/1-a", false]]);
    expect([await adminName(path), await ready(pool)]).toEqual(["ringmaster_1-a", []]);
  });

  it("leaves a branch made meanwhile as it is and hands nothing out", async () => {
    const { repo, worktrees, pool, tip } = await pooled(1);
    const old = await commitFiles(repo, { "x.txt": "x\n" }, "elsewhere");
    await git(repo, ["update-ref", "refs/heads/ringmaster/1", old]);
    await git(repo, ["reset", "--quiet", "--hard", tip]);
    const path = join(worktrees, "ringmaster_1");
    expect(await startFromPool({ repoPath: repo, pool, branch: "ringmaster/1", tip, path })).toBeNull();
    expect([existsSync(path), await branchSha(repo, "ringmaster/1"), await ready(pool), (await listWorktrees(repo)).length]).toEqual([false, old, [], 1]);
  });

  it("checks a taken worktree's HEAD, not only its name: one not at the tip is removed, not handed out", async () => {
    const { repo, worktrees, pool } = await pooled(1);
    const [name] = await ready(pool);
    const moved = await commitFiles(repo, { "later.txt": "later\n" }, "base moves on");
    await rename(join(pool, "ready", name), join(pool, "ready", `${moved}-${name.slice(41)}`));
    const path = join(worktrees, "ringmaster_1");
    expect(await startFromPool({ repoPath: repo, pool, branch: "ringmaster/1", tip: moved, path })).toBeNull();
    expect([existsSync(path), await branchExists(repo, "ringmaster/1"), await ready(pool), (await listWorktrees(repo)).length]).toEqual([false, false, [], 1]);
  });

  it("leaves a pool another filler holds, takes over a lock left long ago, and sheds what a smaller size does not need", async () => {
    const { repo, pool } = await pooled(2);
    await writeFile(join(pool, "fill.lock"), "");
    expect(await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 3 })).toBeNull();
    const old = new Date(Date.now() - 11 * 60_000);
    await utimes(join(pool, "fill.lock"), old, old);
    expect(await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 3 })).toEqual({ added: 1, refreshed: 0, removed: 0 });
    expect(existsSync(join(pool, "fill.lock"))).toBe(false);
    expect(await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 1 })).toEqual({ added: 0, refreshed: 0, removed: 2 });
    expect((await ready(pool)).length).toBe(1);
    expect((await listWorktrees(repo)).length).toBe(2);
  });

  it("removes what a filler that died left, and a drained pool leaves nothing behind", async () => {
    const { repo, pool, tip } = await pooled(1);
    // A filler killed during its `worktree add`: a folder without its git entry, a git entry without its folder.
    await mkdir(join(pool, "building", "half"), { recursive: true });
    await git(repo, ["worktree", "add", "--quiet", "--detach", "--lock", "--reason", POOL_REASON, "--", join(pool, "building", "gone"), tip]);
    await rm(join(pool, "building", "gone"), { recursive: true });
    expect(await fillPool({ repoPath: repo, pool, baseBranch: "main", size: 1 })).toEqual({ added: 0, refreshed: 0, removed: 2 });
    expect((await listWorktrees(repo)).length).toBe(2);

    await git(repo, ["worktree", "add", "--quiet", "--detach", "--lock", "--reason", POOL_REASON, "--", join(pool, "building", "gone"), tip]);
    await rm(join(pool, "building", "gone"), { recursive: true });
    expect(await drainPool(pool, repo)).toBe(2);
    expect(existsSync(pool)).toBe(false);
    expect((await listWorktrees(repo)).map((w) => w.path)).toEqual([repo]);
    // Draining again finds nothing.
    expect(await drainPool(pool, repo)).toBe(0);
  });
});
