// npm run bench:fleet — remote runners against one `next start` web process:
//  1. trigger → run handed to a runner: the real runner's long-poll against a runner that
//     polls every 2 s (the poll-loop design), both measured here, with their ratio; and
//     trigger → the real runner's agent process started, split into its stages;
//  2. 1,000 idle long-polls held open on the web process: memory per poll and CPU;
//  3. runs completed per second with 1, 2 and 4 runners (demo agents: commit and push).
// A "trigger" is what the tick does for a project on runners: claim the prompt into a pool run
// and publish the wake-up. Sizes: TRIALS, POLL_TRIALS, POLLS, RUNS override them.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { benchEnvironment, median, percentile, sleep } from "./lib";
import { runnerTimes, runnerToken, startPollingRunner, startRunner, stopRunner } from "./fleet-parts";
import { startWeb, treeCpuMs, treeRssMb } from "./web";

const TRIALS = Number(process.env.TRIALS ?? 30);
const POLL_TRIALS = Number(process.env.POLL_TRIALS ?? 20);
const POLLS = Number(process.env.POLLS ?? 1_000);
const RUNS = Number(process.env.RUNS ?? 16);
const deadline = setTimeout(() => { console.error("bench:fleet gave up after 15 minutes"); process.exit(1); }, 900_000);

console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the start`);
const { env, drop } = await benchEnvironment("fleet");
const web = await startWeb(".next-fleet", env);
const { getDb, closeDb } = await import("@/lib/db");
const { claimPromptForRun } = await import("@/lib/runs/claim");
const { wakeRunners, closeRunnerWake } = await import("@/lib/runners/wake");
const { closeQueues } = await import("@/lib/queues");
const { closeRedis } = await import("@/lib/redis/connections");
const { createTeamWithDemoProject } = await import("./fixtures");
const db = getDb();
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  for (const until = Date.now() + timeoutMs; ;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error("timed out");
    await sleep(2);
  }
}

async function runnerProject() {
  const made = await createTeamWithDemoProject({ maxParallel: 64, loopEnabled: false });
  await db.projectSettings.update({ where: { projectId: made.project.id }, data: { useRunners: true } });
  const profile = await db.agentProfile.findFirstOrThrow({ where: { teamId: made.team.id } });
  return { ...made, profile, token: await runnerToken(made.team.id) };
}

let promptNumber = 0;
/** What the tick does for a project on runners: the prompt claimed into a pool run, the runners woken. */
async function trigger(p: Awaited<ReturnType<typeof runnerProject>>, body = "print hi\n") {
  const n = ++promptNumber;
  const prompt = await db.prompt.create({ data: { projectId: p.project.id, planningKey: p.project.planningKey, number: n, title: `t${n}`, body } });
  const t0 = Date.now();
  const claimed = await claimPromptForRun({ projectId: p.project.id, promptId: prompt.id, profile: p.profile, routing: {}, now: new Date(), limits: { maxExecutors: 64, cooldownMs: 0 }, remote: true });
  const committed = Date.now();
  await wakeRunners(p.team.id);
  return { t0, committed, published: Date.now(), runId: claimed!.run.id };
}

type Trial = { t0: number; committed: number; published: number; runId: string; handed: number };

/** Trigger → the run handed to a runner (its `startedAt`, set when the poll claims it). */
async function handOff(p: Awaited<ReturnType<typeof runnerProject>>, trials: number, gapMs: () => number) {
  const latencies: number[] = [];
  const stages: Trial[] = [];
  for (let i = 0; i < trials; i++) {
    const t = await trigger(p);
    const run = await waitFor(() => db.run.findFirst({ where: { id: t.runId, startedAt: { not: null } } }));
    latencies.push(run.startedAt!.getTime() - t.t0);
    stages.push({ ...t, handed: run.startedAt!.getTime() });
    // Never more runs live than the runner's slots, so it is always back in its poll.
    await waitFor(async () => (await db.run.count({ where: { projectId: p.project.id, status: { in: ["queued", "starting", "running"] } } })) < 2);
    await sleep(gapMs());
  }
  return Object.assign(latencies, { stages });
}

// 1. Latency: the real runner (long-poll) against a runner polling every 2 s.
const longPoll = await runnerProject();
const runner = await startRunner(web.base, longPoll.token, "long-poll", 4);
await handOff(longPoll, 2, () => 200); // warm the routes
const held = await handOff(longPoll, TRIALS, () => 100 + Math.random() * 400);
// Where the time goes, trial by trial: the tick's claim commits; the wake-up is published; the web
// process's poll claims the run (its startedAt); the runner has the answer (its log); its agent starts.
await waitFor(async () => held.stages.every((t) => runnerTimes(runner.output(), t.runId).started !== null) || null, 60_000).catch(() => {});
const stageRows = held.stages.map((t) => ({ ...t, ...runnerTimes(runner.output(), t.runId) })).filter((t) => t.received !== null && t.started !== null);
// A trial whose agent never said it started is left out of the stages: what the runner and the run say of it.
for (const t of held.stages.filter((s) => !stageRows.some((r) => r.runId === s.runId))) {
  const run = await db.run.findUnique({ where: { id: t.runId }, select: { status: true, error: true } });
  const lines = runner.output().split("\n").filter((l) => l.includes(t.runId));
  console.log(`trial without its agent's start (run ${t.runId}: ${run?.status}${run?.error ? `, ${run.error}` : ""}); the runner's lines about it:\n${lines.map((l) => `  ${l}`).join("\n") || "  none"}`);
}
await stopRunner(runner);
const polling = await runnerProject();
const poller = startPollingRunner(web.base, polling.token);
await sleep(500);
const polled = await handOff(polling, POLL_TRIALS, () => Math.random() * 700);
await poller.stop();
const [h50, h99, p50, p99] = [median(held), percentile(held, 99), median(polled), percentile(polled, 99)];
console.log(`trigger → run handed to the runner, long-poll (${held.length} trials): p50 ${fmt(h50)}, p99 ${fmt(h99)} (target p99 ≤ 250 ms)`);
console.log(`trigger → run handed to the runner, polling every 2 s (${polled.length} trials): p50 ${fmt(p50)}, p99 ${fmt(p99)}`);
console.log(`ratio (2 s poll / long-poll): p50 ${(p50 / h50).toFixed(1)}×, p99 ${(p99 / h99).toFixed(1)}×`);
const stage = (label: string, values: number[]) => console.log(`  ${label}: p50 ${fmt(median(values))}, p99 ${fmt(percentile(values, 99))}`);
const started = stageRows.map((t) => t.started! - t.t0);
const fromCommit = stageRows.map((t) => t.started! - t.committed);
console.log(`trigger → the runner's agent started, long-poll (${stageRows.length} trials): p50 ${fmt(median(started))}, p99 ${fmt(percentile(started, 99))} (target p99 ≤ 250 ms)`);
console.log(`  the same from the trigger's commit (the run queued for runners): p50 ${fmt(median(fromCommit))}, p99 ${fmt(percentile(fromCommit, 99))}; by stage:`);
stage("claim committed (the tick's transaction)", stageRows.map((t) => t.committed - t.t0));
stage("wake-up published to Redis", stageRows.map((t) => t.published - t.committed));
stage("web: woken poll claims the run", stageRows.map((t) => t.handed - t.published));
stage("web → runner: trigger described and answered", stageRows.map((t) => t.received! - t.handed));
stage("runner: worktree ready, agent spawned", stageRows.map((t) => t.started! - t.received!));

// 2. Idle long-polls held open on the one web process, one agent each.
const idle = await runnerProject();
const agentIds = Array.from({ length: POLLS }, () => randomUUID());
await db.agent.createMany({ data: agentIds.map((id, i) => ({ id, teamId: idle.team.id, name: `idle-${i}`, role: "worker" as const, status: "idle" as const, lastSeenAt: new Date() })) });
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const requests: http.ClientRequest[] = [];
const early = new Map<string, number>();
const openPoll = (id: string) => {
  const req = http.get(`${web.base}/api/runner/poll?wait=60`, { agent, headers: { authorization: `Bearer ${idle.token}`, "x-agent-id": id } }, (res) => {
    let body = "";
    res.on("data", (c: Buffer) => { body += c.toString(); });
    res.on("end", () => {
      const key = `HTTP ${res.statusCode} ${(/"code":"([^"]+)"/.exec(body)?.[1] ?? body).slice(0, 60)}`;
      early.set(key, (early.get(key) ?? 0) + 1);
    });
  });
  req.on("error", () => {});
  requests.push(req);
};
const WINDOW_S = 12; // one lease TTL: each held poll marks its agent seen once per TTL
await sleep(1_000);
// RSS moves with the garbage collector: the median of a few samples.
const rss = async () => { const s: number[] = []; for (let i = 0; i < 5; i++) { s.push(treeRssMb(web.pid)); await sleep(400); } return median(s); };
const rssBefore = await rss();
const idleCpu0 = treeCpuMs(web.pid);
await sleep(WINDOW_S * 1000);
const idleCpuMs = treeCpuMs(web.pid) - idleCpu0;
// Opened in steps, as runners start over time; each poll's first look for work is a transaction.
for (let i = 0; i < POLLS; i += 50) {
  for (const id of agentIds.slice(i, i + 50)) openPoll(id);
  await sleep(250);
}
await sleep(3_000);
const rssHeld = await rss();
const cpu0 = treeCpuMs(web.pid);
await sleep(WINDOW_S * 1000);
const cpuMs = treeCpuMs(web.pid) - cpu0;
const answered = [...early].map(([k, n]) => `${n} × ${k}`).join(", ");
const heldCount = POLLS - [...early.values()].reduce((a, b) => a + b, 0);
for (const r of requests) r.destroy();
console.log(`idle long-polls: ${heldCount} of ${POLLS} held on one web process${answered ? `; answered before their 60 s wait (should be none): ${answered}` : ""}`);
console.log(`  memory: ${rssBefore.toFixed(0)} MB before, ${rssHeld.toFixed(0)} MB while held: ${(((rssHeld - rssBefore) * 1024) / POLLS).toFixed(1)} KB per poll`);
const share = (ms: number) => `${(ms / WINDOW_S / 10).toFixed(1)} % of one core`;
console.log(`  CPU over ${WINDOW_S} s: ${share(cpuMs)} while held, against ${share(idleCpuMs)} with none; ${((cpuMs - idleCpuMs) / POLLS).toFixed(2)} ms per poll per ${WINDOW_S} s`);
await sleep(2_000);

// 3. Throughput: RUNS demo-agent runs (commit + push to the project) over 1, 2 and 4 runners.
const rates: number[] = [];
for (const count of [1, 2, 4]) {
  const p = await runnerProject();
  const runners = await Promise.all(Array.from({ length: count }, (_, i) => startRunner(web.base, p.token, `r${count}-${i}`, 1)));
  const t0 = Date.now();
  const runIds: string[] = [];
  for (let i = 0; i < RUNS; i++) runIds.push((await trigger(p, `print run ${i}\n\n\`\`\`file f/${i}.txt\n${i}\n\`\`\`\n`)).runId);
  await waitFor(async () => (await db.run.count({ where: { id: { in: runIds }, status: { notIn: ["queued", "starting", "running"] } } })) === RUNS, 600_000);
  const runs = await db.run.findMany({ where: { id: { in: runIds } } });
  const failed = runs.filter((r) => r.status !== "succeeded" || !r.commitSha).length;
  const seconds = (Math.max(...runs.map((r) => r.finishedAt!.getTime())) - t0) / 1000;
  rates.push(RUNS / seconds);
  const spread = new Set(runs.map((r) => r.remoteAgentId)).size;
  const linear = count === 1 ? "" : ` (linear from one runner: ${(rates[0] * count).toFixed(2)})`;
  console.log(`throughput, ${count} runner${count === 1 ? "" : "s"} of 1 slot: ${rates.at(-1)!.toFixed(2)} runs/s${linear}; ${RUNS} runs over ${spread} runners, ${failed} not succeeded with a commit`);
  await Promise.all(runners.map(stopRunner));
}

await web.stop();
await closeRunnerWake();
await closeQueues();
await closeRedis();
await closeDb();
await drop();
clearTimeout(deadline);
