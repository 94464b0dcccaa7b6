// One half of bench:loop: reaction latency (prompt created → agent started) and throughput,
// with nudges on or off (NUDGES env), printed as one JSON line for bench/loop.ts.
import { benchEnvironment, median, percentile, sleep, startWorkers, stopWorkers, workersReady } from "./lib";

const nudges = process.env.NUDGES !== "off";
const trials = Number(process.env.TRIALS ?? (nudges ? 30 : 8));
const { env, drop } = await benchEnvironment(nudges ? "nudge" : "tick");
const { getDb, closeDb } = await import("@/lib/db");
const { createPrompt } = await import("@/lib/prompts/create");
const { closeQueues } = await import("@/lib/queues");
const { closeRedis } = await import("@/lib/redis/connections");
const { createTeamWithDemoProject } = await import("./fixtures");

const workers = startWorkers(nudges ? 2 : 1, { ...env, NUDGES: nudges ? "on" : "off" });
await workersReady(workers);
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

const { actor, project } = await createTeamWithDemoProject({ maxParallel: 4 });
const reaction: number[] = [];
const toClaim: number[] = [];
for (let i = 0; i < trials; i++) {
  const t0 = Date.now();
  const prompt = await createPrompt(actor, project, { title: `reaction ${i}`, body: "print hi\n" });
  const run = await waitFor(() => db.run.findFirst({ where: { promptId: prompt.id, startedAt: { not: null } } }));
  reaction.push(run.startedAt!.getTime() - t0);
  toClaim.push(run.queuedAt.getTime() - t0);
  await waitFor(() => db.prompt.findFirst({ where: { id: prompt.id, status: "done" } }));
}

let runsPerSecond: number | null = null;
if (nudges) {
  const { actor: a2, project: p2 } = await createTeamWithDemoProject({ maxParallel: 4 });
  const count = 40;
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
console.log(JSON.stringify({ nudges, trials, p50: median(reaction), p99: percentile(reaction, 99), claimP50: median(toClaim), runsPerSecond }));
