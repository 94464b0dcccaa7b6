import { closeSync, constants, existsSync, fchmodSync, fchownSync, fstatSync, lstatSync, openSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { SandboxUser } from "@/lib/sandbox/bwrap";
import { runCommand } from "@/lib/spawner";

// The share's commands need only the system's tools, and speak the C locale: the vanished files'
// complaints are matched in English below.
const SHARE_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };

/** Runs a command and fails with its stderr, through a worker's spawner when it has one. */
async function run(cmd: string, args: string[], background = false): Promise<void> {
  const exit = await runCommand(cmd, args, { env: SHARE_ENV, background }).catch((error: Error) => {
    throw new Error(`${cmd} could not be started: ${error.message}`);
  });
  if (exit.code !== 0) throw Object.assign(new Error(`${cmd} failed (${exit.signal ?? `exit ${exit.code}`}): ${exit.stderr.trim()}`), { stderr: exit.stderr });
}

/**
 * Other git processes work in the same repository meanwhile (another run's commit, a merge,
 * git's own maintenance) and create and delete lock and temporary files under objects/, refs/
 * and logs/. A file that vanished between the walk listing it and the change needs no group, so
 * the command's only complaints being "No such file or directory" is success; anything else
 * still fails the run. (This failed runs "before or around their agent" under load.)
 */
export async function runIgnoringVanished(cmd: string, args: string[], background = false): Promise<void> {
  try {
    await run(cmd, args, background);
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "");
    const lines = stderr.split("\n").filter((l) => l.trim() !== "");
    if (lines.length === 0 || !lines.every((l) => l.includes("No such file or directory"))) throw err;
  }
}

/**
 * What a sandboxed command writes (the worktree, its git folder, the repository's objects,
 * refs and logs) stays owned by us but becomes writable for the sandbox user's group; the
 * setgid bit keeps new folders in the group. Nothing is handed over and back, so a worker that
 * dies mid-run leaves no folder our own git would refuse as someone else's. Run before every
 * sandbox, as files our git wrote since (a rebase) are not group-writable yet; a worktree of the
 * pool that was shared when it was filled (sandboxShareTag) and not checked out since is not walked again.
 */
export async function shareWithSandboxGroup(paths: string[], user: SandboxUser, opts: { background?: boolean } = {}): Promise<void> {
  const present = paths.filter(existsSync);
  if (!user || present.length === 0) return;
  // One process started, not three. `background`: off every run's path (a pool's fill), niced.
  await runIgnoringVanished("/bin/sh", ["-c", SHARE_SCRIPT, "share", String(user.gid), ...present], opts.background);
}

/**
 * Whether everything under `paths` is as the share leaves what a sandboxed git needs of it, looked
 * at without changing anything (no process is started): every folder the group's, writable by it
 * and setgid; every file the group's and readable by it, and writable where git appends to it in
 * place (`appended`: the reflogs; objects are never rewritten and refs are replaced by a rename in
 * their folder). What the sandbox user made itself (an agent's commit) is its own: fine when it
 * can read and write it as its owner. False at the first that is not, or that vanished meanwhile:
 * the share then runs.
 * Looked at with synchronous calls, a few hundred at a time: the run's checkout beside it waits
 * for the same thread pool, which a walk of asynchronous calls would fill.
 */
export async function sharedAlready(paths: string[], appended: string[], user: NonNullable<SandboxUser>): Promise<boolean> {
  // The group's bits; an owner's are the same shifted by three.
  const needed = (st: Stats, writable: boolean) => st.isDirectory() ? 0o070 : writable ? 0o060 : 0o040;
  const ok = (st: Stats, writable: boolean) => (st.isDirectory() || st.isFile()) && st.gid === user.gid
    && (!st.isDirectory() || (st.mode & 0o2000) !== 0)
    && ((st.mode & needed(st, writable)) === needed(st, writable) || (st.uid === user.uid && (st.mode & (needed(st, writable) << 3)) === needed(st, writable) << 3));
  const queue: [string, boolean][] = [...paths.map((p) => [p, false] as [string, boolean]), ...appended.map((p) => [p, true] as [string, boolean])];
  for (let looked = 0; queue.length > 0; looked++) {
    if (looked > 0 && looked % 256 === 0) await new Promise((resume) => setImmediate(resume));
    const [path, writable] = queue.pop()!;
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || !ok(st, writable)) return false;
    if (!st.isDirectory()) continue;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      return false;
    }
    for (const name of names) queue.push([join(path, name), writable]);
  }
  return true;
}

/**
 * Shares one folder (not what it holds) as the share does, by its open handle: a link put in its
 * place is refused, never followed. For a folder git made and removes with its last entry (a
 * branch's ref folder), so that a run's start need not walk the repository for it.
 */
export function shareFolder(path: string, user: NonNullable<SandboxUser>): void {
  // Synchronous (four system calls): a run's start makes its branch in the folder right after.
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    const st = fstatSync(fd);
    if (st.gid !== user.gid) fchownSync(fd, st.uid, user.gid);
    if ((st.mode & 0o2070) !== 0o2070) fchmodSync(fd, (st.mode & 0o7777) | 0o2070);
  } finally {
    closeSync(fd);
  }
}

/** The pool's name for a worktree already shared with this sandbox user's group (lib/runs/worktree-pool.ts). */
export const sandboxShareTag = (user: NonNullable<SandboxUser>) => `group-${user.gid}`;

// All three steps run whatever the one before said (a vanished file is not a reason to stop);
// any failure fails the script, and stderr holds every complaint for runIgnoringVanished to judge.
const SHARE_SCRIPT = [
  'gid=$1; shift; status=0',
  'chgrp -R "$gid" "$@" || status=1',
  'chmod -R g+rwX "$@" || status=1',
  'find "$@" -ignore_readdir_race -type d -exec chmod g+s {} + || status=1',
  'exit "$status"',
].join("\n");
