// A stand-in for a spawn worker (run as its own process): starts a shell agent that leaves a
// background child, the way the worker does (lib/runs/watchdog.ts chooses the supervision),
// prints "agent up" once both are running and waits to be killed. MODE: "sandbox" (bwrap),
// "unsandboxed" (the watchdog), or "unsupervised" (neither: the control case). SPAWNER=on starts
// the agent through the process's spawner, as a worker does (lib/spawner.ts).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent } from "@/lib/agents/run";
import { shellAdapter } from "@/lib/agents/shell";
import { supervisedAdapter } from "@/lib/runs/watchdog";
import { startSandbox } from "@/lib/sandbox/session";
import { getSandboxStatus } from "@/lib/sandbox/status";
import { useSpawner } from "@/lib/spawner";

const mode = process.env.MODE ?? "sandbox";
if (process.env.SPAWNER === "on") useSpawner();
const worktree = mkdtempSync(join(tmpdir(), "rm-supervision-"));
let launcher = { launch: (spec: { command: string; args: string[]; shell?: boolean; env: Record<string, string> }) => spec, diesWithParent: mode === "unsupervised" };
if (mode === "sandbox") {
  const status = await getSandboxStatus();
  if (!status.ok) throw new Error(status.reason);
  launcher = await startSandbox(status.host, { worktree, git: null, policy: { mode: "none", rules: [] }, readOnly: [] });
}
await runAgent({
  adapter: supervisedAdapter(shellAdapter, launcher, process.execPath),
  context: { prompt: "", worktree, commandTemplate: "sleep 300 & sleep 301 & echo agent up; wait" },
  env: { PATH: "/usr/bin:/bin" },
  launch: launcher.launch,
  onLine: ({ line }) => { if (line === "agent up") console.log("agent up"); },
});
