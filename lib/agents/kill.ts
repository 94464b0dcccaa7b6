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
