import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { errorCode, statOrNull } from "@/lib/git/fs";

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
  let packed: Buffer | undefined;
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
    tips.set(branch, packedSha(packed, ref));
  }
  return tips;
}

// packed-refs is searched for the names asked, not parsed whole: a project's repository gathers a
// branch per run, and packed (by gc) they make a file of megabytes (20,000 refs: 1.4 MB, 7 ms to
// split and map on the worker's main thread). Its bytes are searched, not decoded.
function readPacked(common: string): Buffer {
  try {
    return readFileSync(join(common, "packed-refs"));
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
    return Buffer.alloc(0);
  }
}

const SHA_AT_LINE_START = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Each packed line whose name is `ref` followed by `end` ("" for the whole name, "/" for a name
 * under it), as its sha: a line is `<sha> <name>`; comments (#) and peeled tags (^<sha>) name none.
 */
function* packedLines(packed: Buffer, ref: string, end: "" | "/"): Generator<string> {
  const needle = Buffer.from(` ${ref}${end}`);
  for (let at = packed.indexOf(needle); at !== -1; at = packed.indexOf(needle, at + 1)) {
    const after = at + needle.length;
    if (end === "" && after < packed.length && packed[after] !== LF && !(packed[after] === CR && packed[after + 1] === LF)) continue;
    const lineStart = at === 0 ? 0 : packed.lastIndexOf(LF, at - 1) + 1;
    const sha = packed.toString("latin1", lineStart, at);
    if (SHA_AT_LINE_START.test(sha)) yield sha;
  }
}

const [LF, CR] = [0x0a, 0x0d];

/** The sha packed for `ref`, or null. */
function packedSha(packed: Buffer, ref: string): string | null {
  for (const sha of packedLines(packed, ref, "")) return sha;
  return null;
}

/** A packed ref at `ref`, at a folder of it (`a` for `a/b`), or under it (`a/b/c`). */
function packedInTheWay(packed: Buffer, ref: string): boolean {
  const parts = ref.split("/");
  for (let i = 3; i <= parts.length; i++) {
    // refs/heads/<first part> and every longer prefix: itself when i is the whole name.
    if (packedSha(packed, parts.slice(0, i).join("/")) !== null) return true;
  }
  return !packedLines(packed, ref, "/").next().done;
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
    if (occupied(path) || packedInTheWay(readPacked(common), ref)) return false;
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
