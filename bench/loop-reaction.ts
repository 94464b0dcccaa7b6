// One half of bench:loop: reaction latency (prompt created → the agent's own first timestamp)
// and throughput, with nudges on or off (NUDGES env), printed as one JSON line for bench/loop.ts.
// With nudges it also measures the floor in the same run: creating the prompt plus starting the
// same agent command directly (no loop, no worktree, no sandbox).
import { spawn } from "node:child_process";
import { benchEnvironment, median, percentile, sleep, startWorkers, stopWorkers, workersReady } from "./lib";

const nudges = process.env.NUDGES !== "off";
const trials = Number(process.env.TRIALS ?? (nudges ? 60 : 8));
const throughputPrompts = Number(process.env.THROUGHPUT_PROMPTS ?? 40);
const { env, drop } = await benchEnvironment(nudges ? "nudge" : "tick");
const { getDb, closeDb } = await import("@/lib/db");
const { createPrompt } = await import("@/lib/prompts/create");
const { closeQueues } = await import("@/lib/queues");
const { closeRedis } = await import("@/lib/redis/connections");
const { createTeamWithDemoProject } = await import("./fixtures");

// The spawn queue's rate limit (a runaway guard: 60 agent starts a minute by default) is raised:
// the trials, bursts and throughput prompts start more than that, and measure the path, not the guard.
// CPU_PROFILE_DIR=<dir> writes a V8 CPU profile of each worker there.
const profiled = process.env.CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CPU_PROFILE_DIR}`] : [];
const workers = startWorkers(nudges ? 2 : 1, { ...env, NUDGES: nudges ? "on" : "off", SPAWN_RATE_MAX: "100000" }, profiled);
await workersReady(workers);
// Each run's start stages, as the worker logs them ("agent started", lib/runs/start-stages.ts).
const startLines = new Map<string, { stages: Record<string, number>; steps?: Record<string, number>; spawnedAt: number; pooledWorktree?: boolean }>();
for (const w of workers) {
  let rest = "";
  w.stdout!.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      // A worker's warnings and errors (pino levels 40, 50) are shown: a slow trial may be a failed one.
      if (/"level":(40|50|60)/.test(line)) process.stderr.write(`worker: ${line}\n`);
      if (!line.includes('"agent started"')) continue;
      const { runId, stages, steps, spawnedAt, pooledWorktree } = JSON.parse(line);
      startLines.set(runId, { stages, steps, spawnedAt, pooledWorktree });
    }
  });
}
const db = getDb();

// What the bench reads back is each agent's own timestamp and the rows' times, so how often it
// looks changes no figure, only how much of the machine's two cores the looking takes from the
// runs it measures (every 2 ms, its queries took most of a core during a burst).
const pollMs = Number(process.env.POLL_MS ?? 20);

async function waitFor<T>(check: () => Promise<T | null | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(pollMs);
  }
}

// The agent prints its own first timestamp (ms) and writes a file, so the run commits and merges.
const AGENT = `echo agent-started $(date +%s%3N); echo hi > "r-$(date +%s%N).txt"`;
const BURST_ROUNDS = Number(process.env.BURST_ROUNDS ?? 5);
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
// Two kinds of trial, alternating: a prompt created the moment the previous one is done (its merge
// just moved the base, so the pool's worktrees are being checked out again and the merge's clean-up
// runs beside the start), and one created when the project is at rest (REST_MS later).
const restMs = Number(process.env.REST_MS ?? (nudges ? 1_000 : 0));
type Trials = { reaction: number[]; toRunStarted: number[]; toClaim: number[]; stageTimes: Record<string, number>[]; stepTimes: Record<string, number>[]; pooledStarts: number };
const newTrials = (): Trials => ({ reaction: [], toRunStarted: [], toClaim: [], stageTimes: [], stepTimes: [], pooledStarts: 0 });
const afterMerge = newTrials();
const atRest = newTrials();
const floor: number[] = [];
for (let i = 0; i < trials; i++) {
  const into = restMs > 0 && i % 2 === 1 ? atRest : afterMerge;
  if (into === atRest) await sleep(restMs);
  const t0 = Date.now();
  const prompt = await createPrompt(actor, project, { title: `reaction ${i}`, body: "print hi\n" });
  const created = Date.now() - t0;
  const run = await waitFor(() => db.run.findFirst({ where: { promptId: prompt.id, startedAt: { not: null } } }));
  const logged = await waitFor(async () => agentStart((await db.runLog.findMany({ where: { runId: run.id } })).map((l) => l.content)) || null);
  into.reaction.push(logged - t0);
  into.toRunStarted.push(run.startedAt!.getTime() - t0);
  into.toClaim.push(run.queuedAt.getTime() - t0);
  const start = await waitFor(async () => startLines.get(run.id), 5_000).catch(() => null);
  if (start) {
    // Trials whose run took a ready worktree from the project's pool (lib/runs/worktree-pool.ts).
    if (start.pooledWorktree) into.pooledStarts++;
    // prompt created → run claimed by the tick → spawn job queued → … → agent spawned → its first instruction.
    const jobAdded = start.spawnedAt - start.stages.total;
    const { total: _, ...worker } = start.stages;
    into.stageTimes.push({ create: created, tick: run.queuedAt.getTime() - t0 - created, enqueue: jobAdded - run.queuedAt.getTime(), ...worker, exec: logged - start.spawnedAt });
    // The steps a stage runs side by side, each on its own (lib/runs/start-stages.ts).
    if (start.steps) into.stepTimes.push(start.steps);
  }
  await waitFor(() => db.prompt.findFirst({ where: { id: prompt.id, status: "done" } }));
  if (nudges) floor.push(created + await directStart());
}

// Burst: ten prompts created at once, four free slots, the default cooldown (Parallel on: per
// slot). Fill = the first create → the fourth agent's own first timestamp; agents outlive it.
const burstFill: number[] = [];
const burstWindows: Array<[number, number]> = [];
const burstTimeline: Array<{ created: number; runs: Array<{ claimed: number; spawned: number | null; agent: number; pooled: boolean; stages?: Record<string, number>; steps?: Record<string, number> }> }> = [];
if (nudges) {
  const { actor: a3, project: p3 } = await createTeamWithDemoProject({ maxParallel: 4 });
  const sleeper = await db.agentProfile.create({ data: { teamId: p3.teamId, name: "burst", adapter: "shell", commandTemplate: `${AGENT}; sleep 2` } });
  await db.projectSettings.update({ where: { projectId: p3.id }, data: { executorProfileId: sleeper.id, spawnCooldownMs: 10_000 } });
  // The project has run before, as one a burst arrives at does: its first run made its worktree
  // pool (a new project's first burst checks out four new worktrees).
  const warm = await createPrompt(a3, p3, { title: "warm-up", body: "print hi\n" });
  await waitFor(() => db.prompt.findFirst({ where: { id: warm.id, status: "done" } }), 300_000);
  for (let round = 0; round < BURST_ROUNDS; round++) {
    // From rest, as the single reaction it is held against: the last round's merges and the
    // clean-up they start (the pool's refresh to the new base) have ended.
    await sleep(restMs);
    const first = round * 10 + 1;
    const t0 = Date.now();
    const monoStart = process.hrtime.bigint() / 1000n;
    const prompts = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      createPrompt(a3, p3, { title: `burst ${first + i}`, body: "print hi\n", number: first + i + 1 })));
    const created = Date.now() - t0;
    const ids = prompts.map((p) => p.id);
    const starts = await waitFor(async () => {
      const logs = await db.runLog.findMany({ where: { run: { promptId: { in: ids } } } });
      const byRun = new Map<string, string[]>();
      for (const l of logs) byRun.set(l.runId, [...(byRun.get(l.runId) ?? []), l.content]);
      const t = [...byRun.values()].map(agentStart).filter(Boolean).sort((a, b) => a - b);
      return t.length >= 4 ? t : null;
    });
    burstFill.push(starts[3] - t0);
    // The burst's window on the monotonic clock a CPU profile's times are on (µs), to read the profiles by.
    if (profiled.length) burstWindows.push([Number(monoStart), Number(monoStart) + (starts[3] - t0) * 1000]);
    // Where a burst's time goes: each of the first four runs' claim, spawn and agent, from the first create.
    const runs = await db.run.findMany({ where: { promptId: { in: ids } }, orderBy: { queuedAt: "asc" }, take: 4, include: { logs: true } });
    burstTimeline.push({ created, runs: runs.map((r) => {
      const start = startLines.get(r.id);
      return { claimed: r.queuedAt.getTime() - t0, spawned: start ? start.spawnedAt - t0 : null, agent: agentStart(r.logs.map((l) => l.content)) - t0, pooled: start?.pooledWorktree ?? false, stages: start?.stages, steps: start?.steps };
    }) });
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
const summary = (t: Trials) => t.reaction.length === 0 ? null : {
  trials: t.reaction.length, p50: median(t.reaction), p99: percentile(t.reaction, 99), claimP50: median(t.toClaim),
  runStartedP50: median(t.toRunStarted), runStartedP99: percentile(t.toRunStarted, 99),
  stages: stageSummary(t.stageTimes), steps: stageSummary(t.stepTimes), pooledStarts: t.pooledStarts,
};
console.log(JSON.stringify({
  nudges, trials, restMs, afterMerge: summary(afterMerge), atRest: summary(atRest),
  floorP50: floor.length ? median(floor) : null, floorP99: floor.length ? percentile(floor, 99) : null, runsPerSecond,
  burstFill, burstFillP50: burstFill.length ? median(burstFill) : null, burstTimeline,
  ...(profiled.length ? { burstWindows } : {}),
}));

// Per stage: p50 and p99 over the trials that logged it.
function stageSummary(rows: Record<string, number>[]) {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(names.map((n) => {
    const v = rows.map((r) => r[n]).filter((x) => x !== undefined);
    return [n, { p50: median(v), p99: percentile(v, 99) }];
  }));
}
