import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import type { SandboxUser } from "@/lib/sandbox/bwrap";

const run = promisify(execFile);

/**
 * Other git processes work in the same repository meanwhile (another run's commit, a merge,
 * git's own maintenance) and create and delete lock and temporary files under objects/, refs/
 * and logs/. A file that vanished between the walk listing it and the change needs no group, so
 * the command's only complaints being "No such file or directory" is success; anything else
 * still fails the run. (This failed runs "before or around their agent" under load.)
 */
export async function runIgnoringVanished(cmd: string, args: string[]): Promise<void> {
  try {
    await run(cmd, args);
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
export async function shareWithSandboxGroup(paths: string[], user: SandboxUser): Promise<void> {
  const present = paths.filter(existsSync);
  if (!user || present.length === 0) return;
  // One process started from here, not three: a start forks the whole worker, on the path of every run.
  await runIgnoringVanished("/bin/sh", ["-c", SHARE_SCRIPT, "share", String(user.gid), ...present]);
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
