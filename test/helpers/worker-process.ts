import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

/** Starts a real worker process (workers/main.ts) against this test file's database and prefix. */
export function startWorkerProcess(extraEnv: Record<string, string> = {}): ChildProcess & { output: () => string } {
  let output = "";
  // `node --import tsx` keeps the worker one process, so a signal reaches the worker itself.
  const child = spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "info", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c) => { output += c.toString(); });
  child.stderr!.on("data", (c) => { output += c.toString(); });
  return Object.assign(child, { output: () => output });
}

export async function waitForWorkers(child: ReturnType<typeof startWorkerProcess>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!child.output().includes("workers started")) {
    if (child.exitCode !== null) throw new Error(`worker exited: ${child.output()}`);
    if (Date.now() > deadline) throw new Error(`worker did not start: ${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopWorkerProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((r) => { child.once("exit", r); child.kill(signal); });
}
