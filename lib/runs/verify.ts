import { spawn } from "node:child_process";
import type { LaunchSpec } from "@/lib/agents/process";

/**
 * Runs the project's verify command (e.g. `npm test`) in the worktree (seed 003: completion =
 * signal + tests). It is project code, so it starts through the same launcher as the agent.
 */
export function runVerifyCommand(command: string, cwd: string, env: Record<string, string>, launch: (spec: LaunchSpec) => LaunchSpec, timeoutMs = 15 * 60_000) {
  return new Promise<{ ok: boolean; output: string }>((resolve) => {
    const spec = launch({ command: "/bin/sh", args: ["-c", command], env });
    const child = spawn(spec.command, spec.args, { cwd, env: spec.env as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000); };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => { try { process.kill(-child.pid!, "SIGKILL"); } catch { /* gone */ } }, timeoutMs);
    child.on("close", (code) => { clearTimeout(timer); resolve({ ok: code === 0, output }); });
    child.on("error", (err) => { clearTimeout(timer); resolve({ ok: false, output: err.message }); });
  });
}
