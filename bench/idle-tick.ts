// bench:loop, idle part: SQL queries and CPU time of one idle tick per project (loop on,
// nothing to do), measured in-process on real Postgres; printed as one JSON line.
import pg from "pg";
import { benchEnvironment } from "./lib";

const projects = Number(process.env.PROJECTS ?? 200);
const rounds = Number(process.env.ROUNDS ?? 5);
const { drop } = await benchEnvironment("idle");
const { closeDb } = await import("@/lib/db");
const { runTick } = await import("@/lib/loop/tick");
const { closeQueues } = await import("@/lib/queues");
const { closeRedis } = await import("@/lib/redis/connections");
const { createTeamWithDemoProject } = await import("./fixtures");

let queries = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries++;
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

const ids: string[] = [];
for (let i = 0; i < projects; i++) ids.push((await createTeamWithDemoProject({ maxParallel: 3 })).project.id);
for (const id of ids) await runTick(id); // warm-up: first ticks write the initial status

queries = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let r = 0; r < rounds; r++) for (const id of ids) await runTick(id);
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const ticks = projects * rounds;
const cpuMsPerTick = (cpu.user + cpu.system) / 1000 / ticks;

await closeQueues();
await closeRedis();
await closeDb();
await drop();
console.log(JSON.stringify({
  ticks, queriesPerTick: queries / ticks, cpuMsPerTick, wallMsPerTick: wallMs / ticks,
  coreShareFor1000ProjectsAt5s: (cpuMsPerTick * 1000) / 5000,
}));
