// One half of bench:loop: reaction latency (prompt created → the agent's own first timestamp)
// and throughput, with nudges on or off (NUDGES env), printed as one JSON line for bench/loop.ts.
// With nudges it also measures the floor in the same run: creating the prompt plus starting the
// same agent command directly (no loop, no worktree, no sandbox).
import { spawn } from "node:child_process";
import { benchEnvironment, median, percentile, sleep, startWorkers, stopWorkers, workersReady } from "./lib";

const nudges = process.env.NUDGES !== "off";
const trials = Number(process.env.TRIALS ?? (nudges ? 30 : 8));
const throughputPrompts = Number(process.env.THROUGHPUT_PROMPTS ?? 40);
const { env, drop } = await benchEnvironment(nudges ? "nudge" : "tick");
const { getDb, closeDb } = await import("@/lib/db");
const { createPrompt } = await import("@/lib/prompts/create");
const { closeQueues } = await import("@/lib/queues");
const { closeRedis } = await import("@/lib/redis/connections");
const { createTeamWithDemoProject } = await import("./fixtures");

const workers = startWorkers(nudges ? 2 : 1, { ...env, NUDGES: nudges ? "on" : "off" });
await workersReady(workers);
// Each run's start stages, as the worker logs them ("agent started", lib/runs/start-stages.ts).
const startLines = new Map<string, { stages: Record<string, number>; steps?: Record<string, number>; spawnedAt: number; pooledWorktree?: boolean }>();
for (const w of workers) {
  let rest = "";
  w.stdout!.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      if (!line.includes('"agent started"')) continue;
      const { runId, stages, steps, spawnedAt, pooledWorktree } = JSON.parse(line);
      startLines.set(runId, { stages, steps, spawnedAt, pooledWorktree });
    }
  });
}
const db = getDb();

async function waitFor<T>(check: () => Promise<T | null | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(2);
  }
}

// The agent prints its own first timestamp (ms) and writes a file, so the run commits and merges.
const AGENT = `echo agent-started $(date +%s%3N); echo hi > "r-$(date +%s%N).txt"`;
const BURST_ROUNDS = Number(process.env.BURST_ROUNDS ?? 3);
const agentStart = (lines: string[]) => Number(lines.map((l) => /agent-started (\d+)/.exec(l)?.[1]).find(Boolean));

// The same command started directly by this process: spawn → the command's own timestamp.
const directStart = () => new Promise<number>((resolve, reject) => {
  const t0 = Date.now();
  const child = spawn("/bin/sh", ["-c", AGENT], { cwd: env.DATA_DIR, stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout.on("data", (c) => { out += c; });
  child.once("error", reject);
  child.once("close", () => resolve(agentStart([out]) - t0));
});

const { actor, project } = await createTeamWithDemoProject({ maxParallel: 4 });
const profile = await db.agentProfile.create({ data: { teamId: project.teamId, name: "timestamp", adapter: "shell", commandTemplate: AGENT } });
await db.projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
const reaction: number[] = [];
const toRunStarted: number[] = [];
const toClaim: number[] = [];
const floor: number[] = [];
const stageTimes: Record<string, number>[] = [];
// The steps a stage runs side by side, each on its own (lib/runs/start-stages.ts).
const stepTimes: Record<string, number>[] = [];
// Trials whose run took a ready worktree from the project's pool (lib/runs/worktree-pool.ts).
let pooledStarts = 0;
for (let i = 0; i < trials; i++) {
  const t0 = Date.now();
  const prompt = await createPrompt(actor, project, { title: `reaction ${i}`, body: "print hi\n" });
  const created = Date.now() - t0;
  const run = await waitFor(() => db.run.findFirst({ where: { promptId: prompt.id, startedAt: { not: null } } }));
  const logged = await waitFor(async () => agentStart((await db.runLog.findMany({ where: { runId: run.id } })).map((l) => l.content)) || null);
  reaction.push(logged - t0);
  toRunStarted.push(run.startedAt!.getTime() - t0);
  toClaim.push(run.queuedAt.getTime() - t0);
  const start = await waitFor(async () => startLines.get(run.id), 5_000).catch(() => null);
  if (start) {
    if (start.pooledWorktree) pooledStarts++;
    // prompt created → run claimed by the tick → spawn job queued → … → agent spawned → its first instruction.
    const jobAdded = start.spawnedAt - start.stages.total;
    const { total: _, ...worker } = start.stages;
    stageTimes.push({ tick: run.queuedAt.getTime() - t0, enqueue: jobAdded - run.queuedAt.getTime(), ...worker, exec: logged - start.spawnedAt });
    if (start.steps) stepTimes.push(start.steps);
  }
  await waitFor(() => db.prompt.findFirst({ where: { id: prompt.id, status: "done" } }));
  if (nudges) floor.push(created + await directStart());
}

// Burst: ten prompts created at once, four free slots, the default cooldown (Parallel on: per
// slot). Fill = the first create → the fourth agent's own first timestamp; agents outlive it.
const burstFill: number[] = [];
if (nudges) {
  const { actor: a3, project: p3 } = await createTeamWithDemoProject({ maxParallel: 4 });
  const sleeper = await db.agentProfile.create({ data: { teamId: p3.teamId, name: "burst", adapter: "shell", commandTemplate: `${AGENT}; sleep 2` } });
  await db.projectSettings.update({ where: { projectId: p3.id }, data: { executorProfileId: sleeper.id, spawnCooldownMs: 10_000 } });
  for (let round = 0; round < BURST_ROUNDS; round++) {
    const first = round * 10;
    const t0 = Date.now();
    const prompts = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      createPrompt(a3, p3, { title: `burst ${first + i}`, body: "print hi\n", number: first + i + 1 })));
    const ids = prompts.map((p) => p.id);
    const starts = await waitFor(async () => {
      const logs = await db.runLog.findMany({ where: { run: { promptId: { in: ids } } } });
      const byRun = new Map<string, string[]>();
      for (const l of logs) byRun.set(l.runId, [...(byRun.get(l.runId) ?? []), l.content]);
      const t = [...byRun.values()].map(agentStart).filter(Boolean).sort((a, b) => a - b);
      return t.length >= 4 ? t : null;
    });
    burstFill.push(starts[3] - t0);
    await waitFor(async () => (await db.prompt.count({ where: { id: { in: ids }, status: "done" } })) === 10 || null, 300_000);
  }
}

let runsPerSecond: number | null = null;
if (nudges && throughputPrompts > 0) {
  const { actor: a2, project: p2 } = await createTeamWithDemoProject({ maxParallel: 4 });
  const count = throughputPrompts;
  const t0 = Date.now();
  for (let i = 0; i < count; i++) await createPrompt(a2, p2, { title: `throughput ${i}`, body: `\`\`\`file f${i}.txt\n${i}\n\`\`\`\n` });
  await waitFor(async () => (await db.prompt.count({ where: { projectId: p2.id, status: "done" } })) === count || null, 300_000);
  runsPerSecond = count / ((Date.now() - t0) / 1000);
}

await stopWorkers(workers);
await closeQueues();
await closeRedis();
await closeDb();
await drop();
console.log(JSON.stringify({
  nudges, trials, p50: median(reaction), p99: percentile(reaction, 99), claimP50: median(toClaim),
  runStartedP50: median(toRunStarted), runStartedP99: percentile(toRunStarted, 99),
  floorP50: floor.length ? median(floor) : null, floorP99: floor.length ? percentile(floor, 99) : null, runsPerSecond,
  burstFill, burstFillP50: burstFill.length ? median(burstFill) : null,
  stages: stageSummary(stageTimes), steps: stageSummary(stepTimes), pooledStarts,
}));

// Per stage: p50 and p99 over the trials that logged it.
function stageSummary(rows: Record<string, number>[]) {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(names.map((n) => {
    const v = rows.map((r) => r[n]).filter((x) => x !== undefined);
    return [n, { p50: median(v), p99: percentile(v, 99) }];
  }));
}
