// npm run bench:loop — reaction latency with nudges vs the pure 5 s tick (seed 000's
// behaviour) beside its floor, runs completed per second, and what idle projects cost. Each part runs in
// its own process with its own database and key prefix.
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
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
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
const mark = (ok: boolean) => (ok ? "meets" : "misses");
console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(", ")} on ${cpus().length} cores`);
const withNudges = part("loop-reaction.ts", { NUDGES: "on" });
const tickOnly = part("loop-reaction.ts", { NUDGES: "off" });
type Reaction = { trials: number; p50: number; p99: number; claimP50: number; runStartedP50: number; runStartedP99: number; stages: Record<string, { p50: number; p99: number }>; steps: Record<string, { p50: number; p99: number }>; pooledStarts: number };
const pairs = (o: Record<string, { p50: number; p99: number }>) => Object.entries(o).map(([n, v]) => `${n} ${v.p50}/${v.p99}`).join(", ");
function printReaction(label: string, r: Reaction) {
  console.log(`reaction, prompt created → the agent's own first timestamp, with nudges, ${label} (${r.trials} trials): p50 ${fmt(r.p50)}, p99 ${fmt(r.p99)}` +
    ` (target p50 ≤ 50 ms: ${mark(r.p50 <= 50)}; p99 ≤ 150 ms: ${mark(r.p99 <= 150)}); reaction / floor: p50 ${(r.p50 / withNudges.floorP50).toFixed(1)}×, p99 ${(r.p99 / withNudges.floorP99).toFixed(1)}×`);
  console.log(`  of which prompt created → run claimed p50 ${fmt(r.claimP50)}, → run marked started p50 ${fmt(r.runStartedP50)} (p99 ${fmt(r.runStartedP99)})`);
  console.log(`  stages p50/p99 (ms): ${pairs(r.stages)}`);
  // Steps run side by side within a stage (checkout, runToken, prices, credentials and the sandbox's shell within "worktree"; the worktree's entry into the sandbox beside the start being recorded).
  console.log(`  steps within the stages, p50/p99 (ms): ${pairs(r.steps)}`);
  console.log(`  runs that started in a ready worktree of the project's pool: ${r.pooledStarts} of ${r.trials} (WORKTREE_POOL_SIZE ${process.env.WORKTREE_POOL_SIZE ?? "default"})`);
}
const rest = withNudges.atRest as Reaction;
const merged = withNudges.afterMerge as Reaction;
printReaction(`the project at rest (created ${withNudges.restMs} ms after the previous prompt was done)`, rest);
printReaction("right after a merge (created the moment the previous prompt was done: the pool is being refreshed beside the start)", merged);
console.log("  (create: the prompt's create statement and its nudge, in the bench's process; tick: → run claimed by the tick; enqueue: → spawn job added; picked: → a worker took it; claimed … spawned: the worker's steps; exec: agent process spawned → its first instruction)");
console.log(`floor, creating the prompt + the same agent command spawned directly (same run): p50 ${fmt(withNudges.floorP50)}, p99 ${fmt(withNudges.floorP99)}`);
const tick = tickOnly.afterMerge as Reaction;
console.log(`reaction, pure 5 s tick as in seed 000 (${tick.trials} trials): p50 ${fmt(tick.p50)}, p99 ${fmt(tick.p99)}`);
const r50 = tick.p50 / rest.p50, r99 = tick.p99 / rest.p99;
console.log(`ratio (tick / nudge at rest): p50 ${r50.toFixed(1)}× (target ≥ 100×: ${mark(r50 >= 100)}), p99 ${r99.toFixed(1)}× (target ≥ 30×: ${mark(r99 >= 30)});` +
  ` against the nudge right after a merge: p50 ${(tick.p50 / merged.p50).toFixed(1)}×, p99 ${(tick.p99 / merged.p99).toFixed(1)}×`);
if (withNudges.runsPerSecond !== null) console.log(`throughput: ${withNudges.runsPerSecond.toFixed(2)} runs completed per second (40 demo-agent prompts, 4 parallel, 2 worker processes, merges included; the spawn rate limit, 60 a minute by default, raised)`);
const burstLimit = 4 * rest.p50;
console.log(`burst, ten prompts created at once, four free slots, default cooldown: four agents started after p50 ${fmt(withNudges.burstFillP50)} (${withNudges.burstFill.map((b: number) => b.toFixed(0)).join(", ")} ms)` +
  ` (target ≤ 4 × the single reaction = ${fmt(burstLimit)}: ${mark(withNudges.burstFillP50 <= burstLimit)})`);
const idle = part("idle-tick.ts");
console.log(`idle tick (${idle.projects} projects, measured): ${idle.fixed.queriesPerTick.toFixed(2)} SQL queries, ${idle.fixed.cpuMsPerTick.toFixed(3)} ms CPU per tick`);
console.log(`idle backoff: the safety-net period went ${[5000, ...idle.periods].map((p: number) => `${p / 1000} s`).join(" → ")} (${idle.rampTicksPerProject} ticks); steady tick ${idle.steady.queriesPerTick.toFixed(2)} queries, ${idle.steady.cpuMsPerTick.toFixed(3)} ms CPU; schedule check ${idle.scheduleCheck.queries} queries, ${idle.scheduleCheck.cpuMs.toFixed(1)} ms CPU per ${idle.scheduleCheck.everyMs / 1000} s`);
const q = idle.queriesPerProjectMinute, c = idle.coreShare;
console.log(`queries per idle project per minute: ${q.backedOff.toFixed(2)} backed off (target ≤ 1: ${mark(q.backedOff <= 1)}), ${q.fixed.toFixed(1)} at a fixed 5 s`);
console.log(`CPU, 1,000 idle projects: ${pct(c.backedOff1000)} of one core backed off (target ≤ 5 %: ${mark(c.backedOff1000 <= 0.05)}), ${pct(c.fixed1000)} at a fixed 5 s`);
console.log(`CPU, 10,000 idle projects: ${pct(c.backedOff10000)} of one core backed off, ${pct(c.fixed10000)} at a fixed 5 s (per-project cost measured on ${idle.projects}, scaled)`);
