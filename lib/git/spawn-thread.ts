import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * The spawner's file, looked up only when a worker process opts in: the web server's bundle
 * imports this module through lib/git but never starts the thread, so it never evaluates
 * webpack's rewrite of `new URL(…, import.meta.url)` (a build in a worktree whose node_modules
 * is a symlink failed collecting page data on such a module-level URL).
 */
export const gitSpawnerPath = () => fileURLToPath(new URL("../../bin/git-spawner.mjs", import.meta.url));

export type GitExit = { code: number | null; stdout: string; stderr: string } | { error: string };

let thread: Worker | null = null;
let nextId = 0;
const pending = new Map<number, (exit: GitExit) => void>();

/**
 * From now on this process starts its git commands from a worker thread. A process start forks
 * the whole process, which blocks the asking thread for longer the more memory it holds (a
 * worker: ~25 ms per git command on a loaded machine, a third of its wall time in a bench);
 * the worker processes opt in, so their ticks and run starts are not held up behind other runs'
 * commits, diffs and merges.
 */
export function useGitSpawnThread(): void {
  if (thread) return;
  thread = new Worker(gitSpawnerPath());
  thread.on("message", (msg: GitExit & { id: number }) => {
    const done = pending.get(msg.id);
    pending.delete(msg.id);
    if (pending.size === 0) thread?.unref();
    done?.(msg);
  });
  // A thread that died fails what it was asked; the next command goes back to starting git itself.
  thread.on("error", (err) => failAll(err.message));
  thread.on("exit", () => failAll("the git spawner thread exited"));
  thread.unref();
}

function failAll(reason: string) {
  thread = null;
  for (const done of pending.values()) done({ error: reason });
  pending.clear();
}

/** Null when this process starts git itself. */
export function gitInThread(cwd: string, args: string[], env: Record<string, string>): Promise<GitExit> | null {
  const t = thread;
  if (!t) return null;
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    t.ref();
    t.postMessage({ id, cwd, args, env });
  });
}
