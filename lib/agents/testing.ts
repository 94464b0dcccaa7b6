import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES_DIR = fileURLToPath(new URL("../../test/fixtures/agents", import.meta.url));

export function tempDir(prefix = "rm-agents-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A scrubbed environment whose PATH finds the stand-in agent CLIs first, then node and the system. */
export function fixtureEnv(): Record<string, string> {
  return { PATH: [join(FIXTURES_DIR, "bin"), dirname(process.execPath), "/usr/bin", "/bin"].join(":") };
}

export async function readTranscript(name: string): Promise<string[]> {
  const text = await readFile(join(FIXTURES_DIR, "transcripts", name), "utf8");
  return text.split("\n").slice(0, -1);
}

/** True while `pid` runs; a zombie counts as gone, since PID 1 of a container may never reap it. */
export function isAlive(pid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
      return state !== undefined && state !== "Z" && state !== "X";
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until `pid` is gone. A killed process closes its pipes a moment before the kernel marks
 * it dead, so a check made the instant its output ends can still see it running.
 */
export async function waitUntilGone(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

/** The process group of `pid`, from /proc (Linux only). */
export function processGroupOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[2]);
}
