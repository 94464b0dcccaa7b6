// Pieces of bench:fleet: one `next start` web process, real runner processes, a 2 s polling
// runner for the baseline, runner tokens, and the web process's memory and CPU from /proc.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBuild, root, sleep } from "./lib";

const DIST = ".next-fleet";

export async function startWeb(env: Record<string, string>): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  ensureBuild(DIST);
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
  });
  const web = spawn(join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root, stdio: ["ignore", "ignore", "inherit"], detached: true,
    env: { ...process.env, ...env, NODE_ENV: "production", NEXT_DIST_DIR: DIST, NEXT_TELEMETRY_DISABLED: "1", AUTH_SECRET: randomBytes(32).toString("hex"), APP_URL: `http://127.0.0.1:${port}` },
  });
  // `next start` forks the server: signal the whole group, also when the bench fails.
  const kill = () => { try { process.kill(-web.pid!, "SIGTERM"); } catch { /* gone */ } };
  process.on("exit", kill);
  const base = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; ;) {
    if (web.exitCode !== null) throw new Error("next start exited");
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > until) throw new Error("the web process did not become healthy");
    await sleep(200);
  }
  return { base, pid: web.pid!, stop: () => new Promise((r) => { web.once("exit", () => r()); kill(); }) };
}

/** The process and all its descendants (next start forks its server). */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch { /* gone */ }
  }
  const all: number[] = [];
  for (const stack = [pid]; stack.length;) {
    const p = stack.pop()!;
    all.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return all;
}

export function treeRssMb(pid: number): number {
  let kb = 0;
  for (const p of tree(pid)) {
    try { kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0); } catch { /* gone */ }
  }
  return kb / 1024;
}

/** User + system CPU time the process tree has used, in ms (clock ticks of 10 ms). */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const p of tree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone */ }
  }
  return ticks * 10;
}

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
