import { fork, spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { setPriority } from "node:os";
import { PassThrough, type Readable } from "node:stream";
import { fileURLToPath } from "node:url";

/**
 * The spawner's file, looked up only when a worker process opts in: the web server's bundle
 * imports this module through lib/git but never starts the spawner, so it never evaluates
 * webpack's rewrite of `new URL(…, import.meta.url)` (a build in a worktree whose node_modules
 * is a symlink failed collecting page data on such a module-level URL).
 */
export const spawnerPath = () => fileURLToPath(new URL("../bin/spawner.mjs", import.meta.url));

/** A short command's end: its exit and whole output. */
export type CommandExit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };
type SpawnerExit = CommandExit | { error: string };

// A short command that writes without end is stopped past this much output, as execFile's
// maxBuffer would (bin/spawner.mjs keeps the same limit).
const MAX_OUTPUT = 256 * 1024 * 1024;
// An agent's output not yet taken by the worker, past which the spawner reads its pipes no
// further until the worker has taken half of it. The worker says what it took every quarter window.
const WINDOW = 1024 * 1024;

let enabled = false;

/**
 * From now on this process starts its commands (git, the sandbox's share, its agents) through a
 * small process of its own (bin/spawner.mjs). A process start forks the asking process whole: the
 * more memory it maps, the longer (page tables copied), and a worker maps about 250 MB, so each
 * git command cost ~10 ms of a core and blocked the thread that asked; from the spawner, ~1 ms.
 * On two cores in bench:loop, the machine's CPU time fell from 57 to 39 s, most of it the
 * kernel's. The worker processes opt in; the web server, runners and tests start commands themselves.
 */
export function useSpawner(): void {
  enabled = true;
}

// Work off every run's path (refilling a worktree pool) is started niced by a spawner of its own:
// on a busy machine the runs' starts get the CPU first.
export const BACKGROUND_NICE = 10;

type Reply = { id: number; error?: string; type?: "spawned" | "data" | "exit" | "close"; pid?: number; stream?: "stdout" | "stderr"; data?: Uint8Array; code?: number | null; signal?: NodeJS.Signals | null };
/** Told each reply to its request; true once it expects no more. */
type Handler = (reply: Reply) => boolean;

class Spawner {
  private child: ChildProcess | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Handler>();

  constructor(private readonly nice: number) {}

  run(command: string, args: readonly string[], opts: { cwd?: string; env: Record<string, string> }): Promise<SpawnerExit> | null {
    return this.ask({ command, args, cwd: opts.cwd, env: opts.env }, (resolve: (exit: SpawnerExit) => void) => (reply) => {
      resolve(reply.error !== undefined ? { error: reply.error } : reply as SpawnerExit);
      return true;
    });
  }

  start(command: string, args: readonly string[], opts: StartOptions): Promise<SpawnedProcess> | null {
    const proc = new SpawnedProcess((bytes) => this.child?.send({ kind: "took", id, bytes }));
    let id = -1;
    const asked = this.ask({ kind: "start", command, args, cwd: opts.cwd, env: opts.env, shell: opts.shell ?? false, stdin: opts.stdin ?? "", window: WINDOW },
      (resolve: (proc: SpawnedProcess) => void, reject: (err: Error) => void) => (reply) => {
        if (reply.type === "spawned") {
          proc.pid = reply.pid!;
          resolve(proc);
          return false;
        }
        if (reply.type === "data") {
          proc.output(reply.stream!, reply.data!);
          return false;
        }
        if (reply.type === "exit") {
          proc.tell("exit", reply.code ?? null, reply.signal ?? null);
          return false;
        }
        if (reply.error !== undefined && proc.pid === undefined) {
          reject(new Error(reply.error));
          return true;
        }
        // Closed, or the spawner died under it (its agent dies with it): no more output.
        proc.closed(reply.type === "close" ? { code: reply.code ?? null, signal: reply.signal ?? null } : null);
        return true;
      }, (sentId) => { id = sentId; });
    return asked;
  }

  private ask<T>(message: object, handle: (resolve: (value: T) => void, reject: (err: Error) => void) => Handler, sent?: (id: number) => void): Promise<T> | null {
    const child = this.started();
    if (!child) return null;
    const id = this.nextId++;
    sent?.(id);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, handle(resolve, reject));
      busy(child);
      child.send({ id, ...message }, (err) => {
        const handler = err && this.pending.get(id);
        if (handler) {
          this.pending.delete(id);
          handler({ id, error: err.message });
          if (this.pending.size === 0) idle(child);
        }
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
    child.on("message", (reply: Reply) => {
      const handler = this.pending.get(reply.id);
      if (handler?.(reply)) {
        this.pending.delete(reply.id);
        if (this.pending.size === 0) idle(child);
      }
    });
    // A spawner that died fails what it was asked; the next command starts another.
    const gone = (reason: string) => {
      if (this.child === child) this.child = null;
      for (const [id, handler] of this.pending) handler({ id, error: reason });
      this.pending.clear();
    };
    child.on("error", (err) => gone(err.message));
    child.on("exit", (code, signal) => gone(`the spawner exited (${signal ?? code})`));
    idle(child);
    return child;
  }
}

export type StartOptions = { cwd?: string; env: Record<string, string>; shell?: boolean; stdin?: string };

/** What a run needs of its agent's process, started here or by the spawner. */
export type StartedProcess = {
  pid: number;
  stdout: Readable;
  stderr: Readable;
  once(event: "exit" | "close", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
};

/**
 * An agent started by the spawner, as much of a ChildProcess as a run needs: its pid (the leader
 * of its own process group), its output streams, and "exit" and "close" (code, signal) as a
 * ChildProcess emits them. Its stdin was written and closed by the spawner.
 */
export class SpawnedProcess extends EventEmitter {
  pid: number | undefined;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();

  // What it told already, for a listener that comes later: the spawner's replies may all arrive in
  // one read, before whoever awaited the start has attached a listener.
  private readonly told = new Map<"exit" | "close", [number | null, NodeJS.Signals | null]>();

  // Taken and not yet told: the spawner hears once per quarter window, not once per chunk.
  private untold = 0;

  constructor(private readonly took: (bytes: number) => void) {
    super();
  }

  tell(event: "exit" | "close", code: number | null, signal: NodeJS.Signals | null): void {
    if (this.told.has(event)) return;
    this.told.set(event, [code, signal]);
    this.emit(event, code, signal);
  }

  override once(event: string | symbol, listener: (...args: never[]) => void): this {
    const told = (event === "exit" || event === "close") ? this.told.get(event) : undefined;
    if (told) {
      queueMicrotask(() => (listener as (...args: unknown[]) => void)(...told));
      return this;
    }
    return super.once(event, listener as (...args: unknown[]) => void);
  }

  output(stream: "stdout" | "stderr", data: Uint8Array): void {
    this[stream].write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    this.untold += data.byteLength;
    if (this.untold >= WINDOW / 4) {
      this.took(this.untold);
      this.untold = 0;
    }
  }

  /** Null: the spawner died under it, so it is gone with no exit of its own to tell. */
  closed(exit: { code: number | null; signal: NodeJS.Signals | null } | null): void {
    this.stdout.end();
    this.stderr.end();
    const { code, signal } = exit ?? { code: null, signal: null };
    if (!exit) this.tell("exit", code, signal);
    // After the output's last line is read, as a ChildProcess's close.
    let ended = 0;
    const both = () => { if (++ended === 2) this.tell("close", code, signal); };
    for (const stream of [this.stdout, this.stderr]) {
      if (stream.readableEnded) both();
      else stream.once("end", both);
    }
  }
}

const spawners = { foreground: new Spawner(0), background: new Spawner(BACKGROUND_NICE) };

/**
 * Runs a short command and resolves with its exit and whole output; rejects when it cannot be
 * started at all. Through the spawner when this process opted in (useSpawner) and one could be
 * started, else from this process. `background`: work off every run's path, started niced.
 */
export async function runCommand(command: string, args: readonly string[], opts: { cwd?: string; env: Record<string, string>; background?: boolean }): Promise<CommandExit> {
  const asked = enabled ? spawners[opts.background ? "background" : "foreground"].run(command, args, opts) : null;
  if (!asked) return runHere(command, args, opts);
  const exit = await asked;
  if ("error" in exit) throw new Error(exit.error);
  return { code: exit.code, signal: exit.signal, stdout: exit.stdout, stderr: exit.stderr };
}

function runHere(command: string, args: readonly string[], opts: { cwd?: string; env: Record<string, string> }): Promise<CommandExit> {
  return new Promise((resolve, reject) => {
    // Next.js declares NODE_ENV required on ProcessEnv; a command's own environment has no need of it.
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) child.kill("SIGKILL");
      else into.push(chunk);
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

/**
 * Starts an agent as the leader of its own process group, its stdin written and closed: through
 * the spawner when this process opted in (a fork of a worker costs ~10 ms of a core, of the
 * spawner ~1 ms), else from this process. Rejects when the command cannot be started at all.
 */
export async function startProcess(command: string, args: readonly string[], opts: StartOptions): Promise<StartedProcess> {
  const asked = enabled ? spawners.foreground.start(command, args, opts) : null;
  if (asked) return asked as Promise<StartedProcess>;
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env as NodeJS.ProcessEnv,
    shell: opts.shell ?? false,
    detached: true,
    stdio: "pipe",
  });
  const pid = child.pid;
  if (pid === undefined) return new Promise((_, reject) => child.once("error", reject));
  // An agent may exit without reading its prompt; the EPIPE that follows is not a failure of ours.
  child.stdin.on("error", () => {});
  child.stdin.end(opts.stdin);
  return Object.assign(child, { pid });
}

// Held only while it has work: an idle spawner keeps no process alive.
type Channel = { ref(): void; unref(): void };
const idle = (child: ChildProcess) => { child.unref(); (child.channel as Channel | undefined)?.unref(); };
const busy = (child: ChildProcess) => { child.ref(); (child.channel as Channel | undefined)?.ref(); };
