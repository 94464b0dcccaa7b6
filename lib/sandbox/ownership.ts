import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import type { SandboxUser } from "@/lib/sandbox/bwrap";

const run = promisify(execFile);

/**
 * What a sandboxed command writes (the worktree, its git folder, the repository's objects,
 * refs and logs) stays owned by us but becomes writable for the sandbox user's group; the
 * setgid bit keeps new folders in the group. Nothing is handed over and back, so a worker that
 * dies mid-run leaves no folder our own git would refuse as someone else's. Run before every
 * sandbox, as files our git wrote since (a rebase) are not group-writable yet.
 */
export async function shareWithSandboxGroup(paths: string[], user: SandboxUser): Promise<void> {
  const present = paths.filter(existsSync);
  if (!user || present.length === 0) return;
  await run("chgrp", ["-R", String(user.gid), ...present]);
  await run("chmod", ["-R", "g+rwX", ...present]);
  await run("find", [...present, "-type", "d", "-exec", "chmod", "g+s", "{}", "+"]);
}
