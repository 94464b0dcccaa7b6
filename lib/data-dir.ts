import { chmodSync, mkdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { getEnv } from "@/lib/env";

let ready: string | undefined;

// Owner only; the group may at most pass through (a private Postgres run as root by `npm start`
// lives in a subfolder and its `postgres` group needs that, see scripts/services.ts).
const WIDEST = 0o710;

/**
 * The data folder (secrets, clones, worktrees), private to the user Ringmaster runs as: created
 * 0700, and an older, wider one is narrowed, so no other account on the machine can list or read it.
 */
export function dataDir(): string {
  const dir = resolve(getEnv().DATA_DIR);
  if (ready === dir) return dir;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { mode, uid } = statSync(dir);
  if (uid === process.getuid?.() && (mode & 0o777 & ~WIDEST) !== 0) chmodSync(dir, mode & WIDEST);
  ready = dir;
  return dir;
}

/** Bytes used under `path` (du -sk: fast on big trees, does not follow symlinks); null when unknown or slower than `timeoutMs`. */
export async function folderBytes(path: string, timeoutMs = 5_000): Promise<number | null> {
  const { execFile } = await import("node:child_process");
  return new Promise((done) => {
    execFile("du", ["-sk", path], { timeout: timeoutMs }, (err, stdout) => {
      const kib = Number(String(stdout).split("\t")[0]);
      done(err || !Number.isFinite(kib) ? null : kib * 1024);
    });
  });
}

export const worktreesDir = (projectId: string) => resolve(dataDir(), "worktrees", projectId);
