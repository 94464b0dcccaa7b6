import { readdirSync, readFileSync } from "node:fs";

/** Whether a process with exactly this argv runs on the host (an agent's pids live in its own namespace). */
export function hostProcessesRunning(argv: string[]): boolean {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).some((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8") === `${argv.join("\0")}\0`;
    } catch {
      return false;
    }
  });
}
