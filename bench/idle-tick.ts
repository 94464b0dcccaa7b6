// bench:loop, idle part: what projects with nothing to do cost, measured in-process on real
// Postgres and Redis (this process's CPU and SQL queries; Postgres's own CPU is not counted).
// Per tick at the fixed 5 s interval (what every running project paid before the backoff), then
// backed off: scheduler ticks until the period stops growing, the steady tick at that period,
// and the fleet-wide schedule check. Printed as one JSON line.
import pg from "pg";
import { benchEnvironment } from "./lib";

const projects = Number(process.env.PROJECTS ?? 200);
const rounds = Number(process.env.ROUNDS ?? 5);
const { drop } = await benchEnvironment("idle");
const { getDb, closeDb } = await import("@/lib/db");
const { getEnv } = await import("@/lib/env");
const { runTick } = await import("@/lib/loop/tick");
const { ensureTickSchedules } = await import("@/lib/loop/schedules");
const { closeQueues, getQueue, tickPeriodMs, tickSchedulerId } = await import("@/lib/queues");
const { closeRedis } = await import("@/lib/redis/connections");
const { createTeamWithDemoProject } = await import("./fixtures");

let queries = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries++;
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

async function measure(work: () => Promise<void>) {
  queries = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const cpu = process.cpuUsage(cpu0);
  return { queries, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 };
}

const ids: string[] = [];
for (let i = 0; i < projects; i++) ids.push((await createTeamWithDemoProject({ maxParallel: 3 })).project.id);
for (const id of ids) await runTick(id); // warm-up: first ticks write the initial status

const ticks = projects * rounds;
// A nudge-like tick never backs off: the cost of one tick at the project's interval.
const fixed = await measure(async () => { for (let r = 0; r < rounds; r++) for (const id of ids) await runTick(id); });

// The scheduler's own ticks: each one with nothing to do doubles the period, until it stops growing.
const periods: number[] = [];
const ramp = await measure(async () => {
  for (let step = 0; step < 10; step++) {
    for (const id of ids) await runTick(id, undefined, { scheduled: true });
    const every = (await getQueue("tick").getJobScheduler(tickSchedulerId(ids[0])))?.every ?? 0;
    if (every === periods.at(-1)) break;
    periods.push(every);
  }
});
const levels = await getDb().loopState.findMany({ where: { projectId: { in: ids } }, select: { tickBackoff: true } });
const maxLevel = Math.max(...levels.map((l) => l.tickBackoff));
if (levels.some((l) => l.tickBackoff !== maxLevel)) throw new Error("not every project backed off to the same period");
const backedOffMs = tickPeriodMs(5000, maxLevel);
const steady = await measure(async () => { for (let r = 0; r < rounds; r++) for (const id of ids) await runTick(id, undefined, { scheduled: true }); });
const check = await measure(async () => { await ensureTickSchedules({ force: true }); });

await closeQueues();
await closeRedis();
await closeDb();
await drop();

// Per project and minute: the steady tick at the backed-off period, plus its share of the
// schedule check every worker runs every SCHEDULE_CHECK_MS.
const perMinute = (tick: { queries: number; cpuMs: number }, periodMs: number) => ({
  queries: (tick.queries / ticks) * (60_000 / periodMs) + (check.queries / projects) * (60_000 / getEnv().SCHEDULE_CHECK_MS),
  cpuMs: (tick.cpuMs / ticks) * (60_000 / periodMs) + (check.cpuMs / projects) * (60_000 / getEnv().SCHEDULE_CHECK_MS),
});
const fixedPerMinute = perMinute(fixed, 5000);
const backedOffPerMinute = perMinute(steady, backedOffMs);
const coreShare = (cpuMsPerProjectMinute: number, n: number) => (cpuMsPerProjectMinute * n) / 60_000;
console.log(JSON.stringify({
  projects, ticks,
  fixed: { queriesPerTick: fixed.queries / ticks, cpuMsPerTick: fixed.cpuMs / ticks, wallMsPerTick: fixed.wallMs / ticks },
  periods, backedOffMs, rampTicksPerProject: periods.length + 1, rampQueriesPerProject: ramp.queries / projects,
  steady: { queriesPerTick: steady.queries / ticks, cpuMsPerTick: steady.cpuMs / ticks },
  scheduleCheck: { queries: check.queries, cpuMs: check.cpuMs, everyMs: getEnv().SCHEDULE_CHECK_MS },
  queriesPerProjectMinute: { fixed: fixedPerMinute.queries, backedOff: backedOffPerMinute.queries },
  coreShare: {
    fixed1000: coreShare(fixedPerMinute.cpuMs, 1000), fixed10000: coreShare(fixedPerMinute.cpuMs, 10_000),
    backedOff1000: coreShare(backedOffPerMinute.cpuMs, 1000), backedOff10000: coreShare(backedOffPerMinute.cpuMs, 10_000),
  },
}));
