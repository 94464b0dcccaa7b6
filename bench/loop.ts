// npm run bench:loop — reaction latency with nudges vs the pure 5 s tick (seed 000's
// behaviour), runs completed per second, and the cost of an idle tick. Each part runs in
// its own process with its own database and key prefix.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root } from "./lib";

function part(script: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ["--import", "tsx", join("bench", script)], {
    cwd: root, env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 15 * 60_000,
  });
  const line = r.stdout.trim().split("\n").at(-1) ?? "";
  if (r.status !== 0 || !line.startsWith("{")) throw new Error(`${script} failed (exit ${r.status}): ${r.stdout.slice(-2000)}`);
  return JSON.parse(line);
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const withNudges = part("loop-reaction.ts", { NUDGES: "on" });
console.log(`reaction, prompt created → agent started, with nudges (${withNudges.trials} trials): p50 ${fmt(withNudges.p50)}, p99 ${fmt(withNudges.p99)}`);
const tickOnly = part("loop-reaction.ts", { NUDGES: "off" });
console.log(`reaction, pure 5 s tick as in seed 000 (${tickOnly.trials} trials): p50 ${fmt(tickOnly.p50)}, p99 ${fmt(tickOnly.p99)}`);
console.log(`ratio (tick / nudge): p50 ${(tickOnly.p50 / withNudges.p50).toFixed(1)}×, p99 ${(tickOnly.p99 / withNudges.p99).toFixed(1)}×`);
console.log(`throughput: ${withNudges.runsPerSecond.toFixed(2)} runs completed per second (40 demo-agent prompts, 4 parallel, 2 worker processes, merges included)`);
const idle = part("idle-tick.ts");
console.log(`idle tick: ${idle.queriesPerTick.toFixed(2)} SQL queries, ${idle.cpuMsPerTick.toFixed(3)} ms CPU, ${idle.wallMsPerTick.toFixed(2)} ms wall per tick (${idle.ticks} ticks)`);
console.log(`1,000 projects at 5 s ticks: ${(idle.coreShareFor1000ProjectsAt5s * 100).toFixed(1)} % of one core`);
