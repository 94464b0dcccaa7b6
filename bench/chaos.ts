// npm run bench:chaos — recovery times under faults, on private Postgres and Redis with two
// worker processes at the default lease settings: a worker killed with -9, Redis FLUSHALL,
// Redis down 5 s, Postgres down 10 s. Each figure is printed beside its ceiling.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { startChaosServices } from "@/scripts/chaos-services";
import { sleep, startWorkers, stopWorkers, workersReady } from "./lib";

const TICK_MS = 2000;
const chaos = await startChaosServices();
const env = {
  DATABASE_URL: chaos.databaseUrl, REDIS_URL: chaos.redisUrl, REDIS_PREFIX: "rmchaos",
  DATA_DIR: mkdtempSync(join(tmpdir(), "rm-bench-chaos-")), LOG_LEVEL: "warn",
};
Object.assign(process.env, env);
const { getEnv } = await import("@/lib/env");
const { getDb, closeDb } = await import("@/lib/db");
const { enqueueTick, upsertTickScheduler, closeQueues } = await import("@/lib/queues");
const { closeRedis } = await import("@/lib/redis/connections");
const { createTeamWithDemoProject } = await import("./fixtures");
const { createPrompt } = await import("@/lib/prompts/create");
const db = getDb();
const { LEASE_TTL_MS, LEASE_RENEW_MS, SWEEP_INTERVAL_MS } = getEnv();

async function until<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(50);
  }
}

async function project(prompts: number, sleepMs: number) {
  const { project } = await createTeamWithDemoProject({ maxParallel: 3 });
  await db.projectSettings.update({ where: { projectId: project.id }, data: { tickIntervalMs: TICK_MS } });
  await upsertTickScheduler(project.id, TICK_MS);
  await db.prompt.createMany({
    data: Array.from({ length: prompts }, (_, i) => ({ projectId: project.id, planningKey: "main", number: i + 1, title: `p${i + 1}`, body: `sleep ${sleepMs}\n\n\`\`\`file f/${i + 1}.txt\n${i + 1}\n\`\`\`\n` })),
  });
  await enqueueTick(project.id, "bench start");
  return project.id;
}

const count = (projectId: string, status: "running" | "done") => status === "done"
  ? db.prompt.count({ where: { projectId, status: "done" } })
  : db.run.count({ where: { projectId, status: "running" } });
const nextTick = async (projectId: string, since: number) =>
  (await until(async () => { const s = await db.loopState.findUnique({ where: { projectId } }); return s?.lastTickAt && s.lastTickAt.getTime() > since ? s : null; })).lastTickAt!.getTime() - since;
const allDone = (projectId: string, n: number) => until(async () => (await count(projectId, "done")) === n);
const reRuns = async (projectId: string) => (await db.run.count({ where: { projectId } })) - (await db.prompt.count({ where: { projectId } }));
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let workers: ChildProcess[] = startWorkers(2, env);
await workersReady(workers);
try {
  console.log(`lease TTL ${s(LEASE_TTL_MS)}, renewed every ${s(LEASE_RENEW_MS)}, sweep every ${s(SWEEP_INTERVAL_MS)}, tick every ${s(TICK_MS)}; 2 worker processes`);

  // 1. kill -9 of a worker mid-run.
  let p = await project(6, 6000);
  await until(async () => (await count(p, "running")) === 3);
  const victim = (await db.run.findFirst({ where: { projectId: p, status: "running" } }))!;
  const index = Number(victim.workerId!.split("-").at(-1));
  workers[index].kill("SIGKILL");
  const killedAt = Date.now();
  const lost = await until(() => db.run.findFirst({ where: { id: victim.id, status: "lost" } }));
  const rerun = await until(() => db.run.findFirst({ where: { promptId: victim.promptId, id: { not: victim.id } } }));
  console.log(`kill -9: run noticed lost ${s(lost.finishedAt!.getTime() - killedAt)} after the kill, ${s(lost.finishedAt!.getTime() - lost.heartbeatAt!.getTime())} after its last heartbeat (ceiling: TTL + one sweep = ${s(LEASE_TTL_MS + SWEEP_INTERVAL_MS)}); prompt re-queued ${s(rerun.queuedAt.getTime() - killedAt)} after the kill (target ≤ 15 s)`);
  await allDone(p, 6);
  const survivors = workers.filter((_, i) => i !== index);
  const [replacement] = startWorkers(1, { ...env, WORKER_ID: "bench-r" } as typeof env);
  await workersReady([replacement]);
  workers = [...survivors, replacement];

  // 2. FLUSHALL mid-loop.
  p = await project(6, 3000);
  await until(async () => (await count(p, "running")) === 3);
  await chaos.flushRedis();
  const flushedAt = Date.now();
  console.log(`FLUSHALL: the loop ticked again ${s(await nextTick(p, flushedAt))} after the flush (ceiling: one tick ${s(TICK_MS)} + one sweep ${s(SWEEP_INTERVAL_MS)})`);
  await allDone(p, 6);

  // 3. Redis down 5 s while runs finish (data kept, as a restart with persistence).
  p = await project(9, 3000);
  await until(async () => (await count(p, "done")) >= 2 && (await count(p, "running")) >= 2);
  // An idle project whose loop runs, given a prompt through the API during the outage.
  const idle = await createTeamWithDemoProject({ maxParallel: 1 });
  await chaos.stopRedis({ keepData: true });
  const redisDownAt = new Date();
  const askedAt = Date.now();
  const added = await createPrompt(idle.actor, idle.project, { title: "added while Redis is down", body: "sleep 100" });
  const answeredIn = Date.now() - askedAt;
  await sleep(Math.max(0, 5000 - answeredIn));
  await chaos.startRedis();
  const redisBack = Date.now();
  const tickAfterRedis = await nextTick(p, redisBack);
  const addedRun = await until(() => db.run.findFirst({ where: { promptId: added.id } }));
  console.log(`Redis down 5 s: a prompt created through the API was answered in ${s(answeredIn)} during the outage; its run was queued ${s(addedRun.queuedAt.getTime() - redisBack)} after Redis returned (ceiling: one relay ${s(getEnv().OUTBOX_RELAY_MS)} + one tick)`);
  const finishedInOutage = await db.run.findMany({ where: { projectId: p, status: "succeeded", finishedAt: { gt: redisDownAt, lt: new Date(redisBack) } } });
  await until(async () => (await db.run.count({ where: { id: { in: finishedInOutage.map((r) => r.id) }, mergeStatus: "merged" } })) === finishedInOutage.length);
  console.log(`Redis down 5 s: the loop ticked again ${s(tickAfterRedis)} after Redis returned (ceiling: one tick ${s(TICK_MS)}); ${finishedInOutage.length} runs finished during the outage, all merged ${s(Date.now() - redisBack)} after it`);
  await allDone(p, 9);
  console.log(`  re-runs: ${await reRuns(p)} (ceiling 0)`);

  // 4. Postgres down 10 s while runs finish.
  p = await project(9, 3000);
  await until(async () => (await count(p, "done")) >= 1 && (await count(p, "running")) >= 2);
  const inFlight = await db.run.findMany({ where: { projectId: p, status: "running" } });
  await chaos.stopPostgres();
  await sleep(10_000);
  await chaos.startPostgres();
  const pgBack = Date.now();
  await until(async () => (await db.run.count({ where: { id: { in: inFlight.map((r) => r.id) }, status: { in: ["succeeded", "failed", "lost"] } } })) === inFlight.length);
  const recordedAfter = Date.now() - pgBack;
  const tickAfterPg = await nextTick(p, pgBack);
  const kept = await db.run.count({ where: { id: { in: inFlight.map((r) => r.id) }, status: "succeeded" } });
  console.log(`Postgres down 10 s: ${kept} of ${inFlight.length} runs that finished during the outage recorded as they were ${s(recordedAfter)} after it returned; the loop ticked again ${s(tickAfterPg)} after (ceiling: one tick ${s(TICK_MS)})`);
  await allDone(p, 9);
  console.log(`  re-runs: ${await reRuns(p)} (ceiling 0)`);
} finally {
  await stopWorkers(workers);
  await closeQueues();
  await closeRedis();
  await closeDb();
  chaos.close();
}
