import { readdirSync, readFileSync } from "node:fs";

/**
 * Signals every process in the group led by `pid` (agents are spawned detached, so their
 * pid is their group id). A group that is already gone is not an error.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** SIGTERM to the whole group now, SIGKILL after `graceMs`; returns a cancel for the SIGKILL. */
export function terminateGroup(pid: number, graceMs: number): () => void {
  signalGroup(pid, "SIGTERM");
  const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
  return () => clearTimeout(timer);
}

/**
 * The processes, other than this one, whose environment holds `name=value` (Linux /proc; one this
 * user may not read is not ours). What an agent started outside its group, e.g. a daemon detached
 * into a session of its own, still carries the variables of its run.
 */
export function markedProcesses(name: string, value: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`${name}=${value}`)) found.push(Number(entry));
    } catch {
      // gone while we looked, or not ours
    }
  }
  return found;
}

/** SIGKILLs every process `markedProcesses` finds. */
export function killMarked(name: string, value: string): void {
  for (const pid of markedProcesses(name, value)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
}
