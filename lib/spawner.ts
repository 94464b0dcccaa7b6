import { fork, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import { fileURLToPath } from "node:url";

/**
 * The spawner's file, looked up only when a worker process opts in: the web server's bundle
 * imports this module through lib/git but never starts the spawner, so it never evaluates
 * webpack's rewrite of `new URL(…, import.meta.url)` (a build in a worktree whose node_modules
 * is a symlink failed collecting page data on such a module-level URL).
 */
export const spawnerPath = () => fileURLToPath(new URL("../bin/spawner.mjs", import.meta.url));

export type SpawnerExit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } | { error: string };

let enabled = false;

/**
 * From now on this process starts its short commands (git, the sandbox's share) through a small
 * process of its own (bin/spawner.mjs). A process start forks the asking process whole: the more
 * memory it maps, the longer (page tables copied), and a worker maps about 250 MB, so each git
 * command cost ~10 ms of a core and blocked the thread that asked; from the spawner, ~1 ms. On
 * two cores in bench:loop, the machine's CPU time fell from 57 to 39 s, most of it the kernel's.
 * The worker processes opt in; the web server and tests start commands themselves.
 */
export function useSpawner(): void {
  enabled = true;
}

// Work off every run's path (refilling a worktree pool) is started niced by a spawner of its own:
// on a busy machine the runs' starts get the CPU first.
export const BACKGROUND_NICE = 10;

class Spawner {
  private child: ChildProcess | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, (exit: SpawnerExit) => void>();

  constructor(private readonly nice: number) {}

  run(command: string, args: readonly string[], opts: { cwd?: string; env: Record<string, string> }): Promise<SpawnerExit> | null {
    const child = this.started();
    if (!child) return null;
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      busy(child);
      child.send({ id, command, args, cwd: opts.cwd, env: opts.env }, (err) => {
        if (err && this.pending.delete(id)) resolve({ error: err.message });
      });
    });
  }

  private started(): ChildProcess | null {
    if (this.child) return this.child;
    let child: ChildProcess;
    try {
      // Nothing of this process's environment (its database URL, its keys): each command brings its own.
      child = fork(spawnerPath(), [], { execArgv: [], env: {} as NodeJS.ProcessEnv, stdio: ["ignore", "inherit", "inherit", "ipc"], serialization: "advanced" });
    } catch {
      return null;
    }
    // Its commands inherit its priority.
    if (this.nice !== 0 && child.pid !== undefined) {
      try {
        setPriority(child.pid, this.nice);
      } catch {
        // Gone already: its first command fails and the next starts another.
      }
    }
    this.child = child;
    child.on("message", (msg: SpawnerExit & { id: number }) => {
      const done = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (this.pending.size === 0) idle(child);
      done?.(msg);
    });
    // A spawner that died fails what it was asked; the next command starts another.
    const gone = (reason: string) => {
      if (this.child === child) this.child = null;
      for (const done of this.pending.values()) done({ error: reason });
      this.pending.clear();
    };
    child.on("error", (err) => gone(err.message));
    child.on("exit", (code, signal) => gone(`the spawner exited (${signal ?? code})`));
    idle(child);
    return child;
  }
}

const spawners = { foreground: new Spawner(0), background: new Spawner(BACKGROUND_NICE) };

/**
 * Runs `command` through the spawner and resolves with its exit and output; null when this
 * process starts its commands itself (it did not opt in, or no spawner could be started).
 * `background`: work off every run's path, started niced.
 */
export function spawnerRun(command: string, args: readonly string[], opts: { cwd?: string; env: Record<string, string>; background?: boolean }): Promise<SpawnerExit> | null {
  if (!enabled) return null;
  return spawners[opts.background ? "background" : "foreground"].run(command, args, opts);
}

// Held only while it has work: an idle spawner keeps no process alive.
type Channel = { ref(): void; unref(): void };
const idle = (child: ChildProcess) => { child.unref(); (child.channel as Channel | undefined)?.unref(); };
const busy = (child: ChildProcess) => { child.ref(); (child.channel as Channel | undefined)?.ref(); };
