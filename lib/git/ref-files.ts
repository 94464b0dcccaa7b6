import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { errorCode, statOrNull } from "@/lib/git/worktree-pool-entry";

// Synchronous, as the rest of a pooled take (lib/git/worktree-pool-take.ts): a few small files on
// a run's start, where each call costs microseconds but an asynchronous one a trip through libuv's
// thread pool (about 0.1 ms, and readFile four of them), shared with the start's other steps.

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

// The repository's own git folder when git keeps refs there as files; null otherwise (a linked
// worktree, a gitfile, the reftable backend): then only git itself can answer.
function filesBackend(repoPath: string): string | null {
  const dotGit = join(repoPath, ".git");
  const kind = statOrNull(dotGit);
  const common = kind?.isDirectory() ? dotGit : kind ? null : repoPath;
  if (!common) return null;
  const [refs, commondir, reftable] = ["refs", "commondir", "reftable"].map((f) => statOrNull(join(common, f)));
  return refs?.isDirectory() && !commondir && !reftable ? common : null;
}

/**
 * Local branches' tips read from git's files (a loose ref, else packed-refs) without starting
 * git: a branch that does not exist maps to null. Null as a whole when the files cannot answer
 * for sure; ask git then. Git writes both files whole (lock, then rename), so a read sees a ref
 * before or after a change, as a `git for-each-ref` started a moment earlier or later would.
 */
export function readBranchTips(repoPath: string, branches: readonly string[]): Map<string, string | null> | null {
  const common = filesBackend(repoPath);
  if (!common) return null;
  const tips = new Map<string, string | null>();
  let packed: Map<string, string> | undefined;
  for (const branch of branches) {
    const ref = `refs/heads/${branch}`;
    let loose: string | null = null;
    try {
      loose = readFileSync(join(common, ref), "utf8").trim();
    } catch (error) {
      // Missing, or a folder or file in the way (`a/b` beside `a`): not a loose ref.
      if (!["ENOENT", "EISDIR", "ENOTDIR"].includes(errorCode(error) ?? "")) throw error;
    }
    if (loose !== null) {
      if (!SHA.test(loose)) return null;
      tips.set(branch, loose);
      continue;
    }
    packed ??= readPacked(common);
    tips.set(branch, packed.get(ref) ?? null);
  }
  return tips;
}

function readPacked(common: string): Map<string, string> {
  let text = "";
  try {
    text = readFileSync(join(common, "packed-refs"), "utf8");
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  const refs = new Map<string, string>();
  for (const line of text.split("\n")) {
    const space = line.indexOf(" ");
    // Comments (#) and peeled tags (^) have no space-separated sha and name.
    if (space > 0 && SHA.test(line.slice(0, space))) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

/**
 * Makes a new local branch at `sha` as git's files backend does, without starting git: a lock
 * file beside the ref made exclusively (another writer holding it means no), the name checked
 * free under the lock, the lock renamed into place. No reflog is started. False, with nothing
 * made, when the branch exists or a ref is in the way of its name (a ref where its folder goes,
 * refs under its name: loose or packed), or another writer holds its lock; null when git's files
 * cannot answer for sure (ask git then).
 */
export function createBranchRef(repoPath: string, branch: string, sha: string): boolean | null {
  const common = filesBackend(repoPath);
  if (!common || !SHA.test(sha)) return null;
  const ref = `refs/heads/${branch}`;
  const path = join(common, ref);
  const lock = `${path}.lock`;
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    // A ref file where a folder of the name goes (`a` when making `a/b`).
    if (["EEXIST", "ENOTDIR"].includes(errorCode(error) ?? "")) return false;
    throw error;
  }
  let fd: number | null;
  try {
    fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o664);
  } catch (error) {
    if (["EEXIST", "ENOTDIR", "ENOENT"].includes(errorCode(error) ?? "")) return false;
    throw error;
  }
  let placed = false;
  try {
    // Under the lock: nothing (a ref, or a folder of refs) at the name, and no packed ref at it,
    // at a folder of it, or under it.
    if (occupied(path)) return false;
    const packed = readPacked(common);
    for (const name of packed.keys()) {
      if (name === ref || ref.startsWith(`${name}/`) || name.startsWith(`${ref}/`)) return false;
    }
    writeFileSync(fd, `${sha}\n`);
    closeSync(fd);
    fd = null;
    renameSync(lock, path);
    placed = true;
    return true;
  } finally {
    if (fd !== null) closeSync(fd);
    if (!placed) {
      try {
        unlinkSync(lock);
      } catch {
        // Gone already.
      }
    }
  }
}

// Something is at the path, or it cannot be told (anything but "no such file").
function occupied(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    return errorCode(error) !== "ENOENT";
  }
}
