// Pieces of bench:fleet: real runner processes, a 2 s polling runner for the baseline, runner tokens.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, sleep } from "./lib";

export async function runnerToken(teamId: string): Promise<string> {
  const { getDb } = await import("@/lib/db");
  const { issueSecret } = await import("@/lib/auth/tokens");
  const { token, prefix, tokenHash } = issueSecret("runner");
  await getDb().apiToken.create({ data: { kind: "runner", teamId, role: "operator", name: "bench", tokenHash, prefix } });
  return token;
}

export type Runner = ChildProcess & { output: () => string };

/** The real runner (runner/main.ts), long-polling; resolves once it has registered. */
export async function startRunner(base: string, token: string, name: string, maxConcurrent: number): Promise<Runner> {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "runner/main.ts", "--url", base, "--name", name,
    "--max-concurrent", String(maxConcurrent), "--work-dir", mkdtempSync(join(tmpdir(), "rm-bench-runner-"))], {
    cwd: root, stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, RINGMASTER_RUNNER_TOKEN: token } as unknown as NodeJS.ProcessEnv,
  });
  child.stdout!.on("data", (c: Buffer) => { output += c.toString(); });
  child.stderr!.on("data", (c: Buffer) => { output += c.toString(); });
  for (const until = Date.now() + 60_000; !output.includes(`registered as "${name}"`);) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`runner ${name} did not register:\n${output}`);
    await sleep(100);
  }
  return Object.assign(child, { output: () => output });
}

export const stopRunner = (r: Runner) => new Promise<void>((resolve) => {
  if (r.exitCode !== null) return resolve();
  r.once("exit", () => resolve());
  r.kill("SIGTERM");
});

/**
 * The baseline: a runner that asks every 2 s (`wait=0`, answered at once) instead of holding a
 * long-poll, as a poll-loop runner does. It reports each run it gets as done at once, so only
 * the delivery is measured.
 */
export function startPollingRunner(base: string, token: string, everyMs = 2_000) {
  const agentId = randomUUID();
  const headers = { authorization: `Bearer ${token}`, "x-agent-id": agentId, "content-type": "application/json" };
  let on = true;
  const loop = (async () => {
    const reg = await fetch(`${base}/api/runner/agents`, { method: "POST", headers, body: JSON.stringify({ role: "worker", name: "every-2s", maxConcurrent: 32 }) });
    if (reg.status !== 201) throw new Error(`the polling runner's registration answered ${reg.status}`);
    while (on) {
      const { trigger } = await (await fetch(`${base}/api/runner/poll?wait=0`, { headers })).json() as { trigger: { run?: { id: string } } | null };
      if (trigger?.run) {
        await fetch(`${base}/api/runner/runs/${trigger.run.id}/complete`, { method: "POST", headers, body: JSON.stringify({ status: "succeeded", exitCode: 0 }) });
      }
      await sleep(everyMs);
    }
  })();
  return { stop: async () => { on = false; await loop; } };
}

/** When the runner's log says it received run `runId` and when its agent process started (its own clock, the same machine's). */
export function runnerTimes(output: string, runId: string): { received: number | null; started: number | null } {
  const at = (pattern: RegExp) => { const m = pattern.exec(output); return m ? Date.parse(m[1]) : null; };
  return {
    received: at(new RegExp(`\\[runner (\\S+)\\] \\w+: run ${runId} `)),
    started: at(new RegExp(`\\[runner (\\S+)\\] run ${runId}: agent started`)),
  };
}
