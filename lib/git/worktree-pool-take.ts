import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createBranchRef } from "@/lib/git/ref-files";
import { git } from "@/lib/git/run";
import { errorCode, readOrEmpty } from "@/lib/git/fs";
import { parseEntryName, readyDir, relink, removePooled, writeWhole } from "@/lib/git/worktree-pool-entry";

export type PoolStartInput = {
  repoPath: string;
  /** The pool's folder (fillPool). */
  pool: string;
  /** A new branch, made at `tip`; the start fails (nothing made) when it exists already. */
  branch: string;
  /** The base branch's tip now: only a worktree checked out there is taken. */
  tip: string;
  /** Where the run's worktree goes (the pool's folder moves there, on the same file system). */
  path: string;
};

const NO_REF = "0".repeat(40);

/**
 * A worktree taken: `preparedAs` names the filler's preparation it still has (null: none, or its
 * checkout changed files since); `commonDir` and `worktreeDir` are its git folders, real paths.
 */
export type PoolTake = { preparedAs: string | null; commonDir: string; worktreeDir: string };

/**
 * Starts a new branch in a ready worktree of the pool instead of checking one out: the folder is
 * renamed to `path` (atomic: of any number of processes taking at once, each gets another one),
 * and the branch is made at the tip it already holds, in one git process. One at an earlier tip
 * (the base moved since the pool was filled: in a busy project, after every merge) is taken too
 * when none is at `tip`, and brought there by the branch's checkout, which rewrites only the files
 * that changed. Null, with nothing made, when the pool is empty or another taker was first, when
 * `path` is taken or when the branch exists: the caller checks one out instead.
 */
export async function startFromPool(input: PoolStartInput): Promise<PoolTake | null> {
  const { pool, tip, path } = input;
  // The take's file system calls are synchronous, microseconds each: asynchronous, each was a
  // trip through libuv's thread pool (about 0.1 ms, readFile four), some 70 in a row on every
  // run's start, beside the start's other steps.
  const ready = readyEntries(pool);
  const atTip = ready.filter((name) => name.startsWith(`${tip}-`));
  const candidates = [...atTip, ...ready.filter((name) => !atTip.includes(name))];
  if (candidates.length === 0) return null;
  mkdirSync(dirname(path), { recursive: true });
  for (const name of candidates) {
    try {
      renameSync(join(readyDir(pool), name), path);
    } catch (error) {
      if (errorCode(error) === "ENOENT") continue;
      return null;
    }
    // Ours alone from here: made the run's, or removed (whatever failed, the caller's checkout
    // finds the branch if it was made, and continues on it).
    const held = parseEntryName(name);
    const adopted = await adopt(input, held.tip).catch(() => null);
    if (adopted) return { preparedAs: held.tip === tip ? held.tag : null, ...adopted };
    await removePooled(path);
  }
  return null;
}

/** `held`: the tip the worktree's name says it is checked out at. Null: not made the run's. */
async function adopt(input: PoolStartInput, held: string): Promise<{ commonDir: string; worktreeDir: string } | null> {
  const { repoPath, branch, tip, path } = input;
  const admin = relink(path);
  // Another repository's (the project's path changed) or not at the tip its name says: not handed out.
  const repo = realpathSync(repoPath);
  const common = dirname(dirname(admin));
  if (common !== repo && common !== join(repo, ".git")) return null;
  if (readFileSync(join(admin, "HEAD"), "utf8").trim() !== held) return null;
  // A git entry left for this path (its folder deleted behind git's back) would come back to life
  // beside this one: the careful way prunes it first.
  const gitdir = `${realpathSync(path)}/.git`;
  for (const other of readdirSync(join(common, "worktrees"))) {
    if (other !== basename(admin) && readOrEmpty(join(common, "worktrees", other, "gitdir")).trim() === gitdir) return null;
  }
  if (held === tip) {
    // Made as git would, without a process where git keeps refs as files. No reflog of the branch
    // is started here: one made by us would not be the sandbox's group's to append to, and the
    // run's start shares nothing more (the agent's first commit starts it).
    const made = createBranchRef(repoPath, branch, tip);
    if (made === false) return null;
    if (made === null) await git(repoPath, ["update-ref", `refs/heads/${branch}`, tip, NO_REF], { env: NO_REFLOG });
    // The worktree is nobody else's, so its HEAD is written as `git symbolic-ref` would, without a process.
    writeWhole(join(admin, "HEAD"), `ref: refs/heads/${branch}\n`);
  } else {
    // Refuses (changing nothing) when the branch exists; the pooled worktree has no changes of its own.
    await git(path, ["checkout", "--quiet", "--no-track", "-b", branch, tip]);
  }
  unlinkSync(join(admin, "locked"));
  return { commonDir: common, worktreeDir: admin };
}

function readyEntries(pool: string): string[] {
  try {
    return readdirSync(readyDir(pool));
  } catch {
    return [];
  }
}

const NO_REFLOG = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.logAllRefUpdates", GIT_CONFIG_VALUE_0: "false" };
