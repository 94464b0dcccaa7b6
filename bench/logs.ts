// Agent output (target: an agent printing 50 MB slows neither the worker nor the run page): one
// worker process and one `next start` on a private database; a shell agent prints 50 MB of lines
// while a client reads the run page's SSE log stream. Prints lines/s reaching the page beside the
// ceiling (the same command read line by line by a bare Node.js process), the run's length beside
// the command's own, and the worker's resident memory before, at its peak and after.
// Run: node --import tsx bench/logs.ts   (LOG_MB overrides the size)
import { spawn } from "node:child_process";
import http from "node:http";
import { cpus, loadavg } from "node:os";
import { readFileSync } from "node:fs";
import { benchEnvironment, sleep, startWorkers, stopWorkers, workersReady } from "./lib";
import { startWeb } from "./web";

const LOG_MB = Number(process.env.LOG_MB ?? 50);
const LINE = "PASS test/some/verbose/spec.test.ts > a case that prints a line of typical test output";
const COMMAND = `yes '${LINE}' | head -c ${LOG_MB * 1024 * 1024}`;
const deadline = setTimeout(() => { console.error("bench:logs gave up after 10 minutes"); process.exit(1); }, 600_000);

const { env, drop } = await benchEnvironment("logs");
const { getDb, closeDb } = await import("@/lib/db");
const { issueSecret } = await import("@/lib/auth/tokens");
const { createPrompt } = await import("@/lib/prompts/create");
const { SseParser } = await import("@/lib/events/sse-parse");
const { closeQueues } = await import("@/lib/queues");
const { closeRedis } = await import("@/lib/redis/connections");
const { RUN_LOG_CAP_BYTES } = await import("@/lib/runs/log-sink");
const { createTeamWithDemoProject } = await import("./fixtures");

const memKb = (pid: number, field: "VmRSS" | "VmHWM") => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

// The ceiling: the same command, its output split into lines by a bare Node.js process.
const direct = await new Promise<{ lines: number; ms: number }>((resolve) => {
  const t0 = performance.now();
  const child = spawn("sh", ["-c", COMMAND], { stdio: ["ignore", "pipe", "ignore"] });
  let lines = 0;
  child.stdout.on("data", (c: Buffer) => { for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++; });
  child.on("close", () => resolve({ lines, ms: performance.now() - t0 }));
});

const db = getDb();
const { team, project, actor } = await createTeamWithDemoProject({ maxParallel: 1 });
const profile = await db.agentProfile.create({ data: { teamId: team.id, name: "verbose", adapter: "shell", commandTemplate: COMMAND } });
const warmProfile = await db.agentProfile.create({ data: { teamId: team.id, name: "warm", adapter: "shell", commandTemplate: "echo warm" } });
const { token, prefix, tokenHash } = issueSecret("api");
await db.apiToken.create({ data: { teamId: team.id, role: "viewer", name: "bench", tokenHash, prefix } });
const web = await startWeb(".next-gh", env);
const [worker] = startWorkers(1, { ...env, TICK_SCHEDULES: "off" });
await workersReady([worker]);

async function runOf(profileId: string, title: string) {
  await db.projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profileId } });
  const prompt = await createPrompt(actor, project, { title, body: "print\n" });
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(5)) {
    const run = await db.run.findFirst({ where: { promptId: prompt.id } });
    if (run) return run;
  }
  throw new Error(`no run for ${title}`);
}

/** Reads the run page's log stream to its end: lines and when each chunk arrived. */
function readLog(runId: string) {
  return new Promise<{ lines: number; firstAt: number; lastAt: number; events: number }>((resolve, reject) => {
    const parser = new SseParser();
    const got = { lines: 0, firstAt: 0, lastAt: 0, events: 0 };
    http.get(`${web.base}/api/runs/${runId}/log`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`log stream: HTTP ${res.statusCode}`));
      res.setEncoding("utf8");
      res.on("data", (text: string) => {
        for (const m of parser.push(text)) {
          if (m.kind !== "event") continue;
          if (m.event === "end") { res.destroy(); return resolve(got); }
          const now = performance.now();
          got.firstAt ||= now;
          got.lastAt = now;
          got.events++;
          got.lines += (JSON.parse(m.data).text as string).split("\n").length;
        }
      });
      res.on("end", () => reject(new Error("log stream closed before end")));
    }).on("error", reject);
  });
}

// Warm-up: one small run through the same path, then the worker's resting memory.
await readLog((await runOf(warmProfile.id, "warm")).id);
await sleep(1000);
const baseline = memKb(worker.pid!, "VmRSS");
const peakBefore = memKb(worker.pid!, "VmHWM");
let peak = baseline;
const sampler = setInterval(() => { try { peak = Math.max(peak, memKb(worker.pid!, "VmRSS")); } catch { /* gone */ } }, 20);

const t0 = performance.now();
const run = await runOf(profile.id, "verbose");
const page = await readLog(run.id);
clearInterval(sampler);
const finished = await db.run.findUniqueOrThrow({ where: { id: run.id } });
const chunks = await db.runLog.count({ where: { runId: run.id } });
const agentMs = finished.finishedAt!.getTime() - finished.startedAt!.getTime();
const streamSeconds = (page.lastAt - page.firstAt) / 1000;
const pageSeconds = (page.lastAt - t0) / 1000;
await sleep(1000);
const after = memKb(worker.pid!, "VmRSS");

const load = `load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}, ${cpus().length} cores`;
console.log(`agent output: ${LOG_MB} MB (${direct.lines} lines) from one shell agent through one worker (${load})`);
console.log(`  ceiling, the command read by a bare Node.js process: ${(direct.lines / (direct.ms / 1000)).toFixed(0)} lines/s (${direct.ms.toFixed(0)} ms)`);
console.log(`  run page (SSE): ${page.lines} lines in ${page.events} events (the log's ${RUN_LOG_CAP_BYTES / 1024 / 1024} MB cap and its marker), ${(page.lines / streamSeconds).toFixed(0)} lines/s from the first line on the page to the last (${streamSeconds.toFixed(2)} s; ${pageSeconds.toFixed(2)} s from the prompt's creation); ${chunks} stored chunks, truncated: ${finished.logTruncated}`);
console.log(`  the run: ${(agentMs / 1000).toFixed(2)} s started → finished, the command alone ${(direct.ms / 1000).toFixed(2)} s (${(agentMs / direct.ms).toFixed(1)}×, run set-up and commit included)`);
console.log(`  worker RSS: ${mb(baseline)} at rest, peak ${mb(peak)} sampled every 20 ms during the run (kernel high-water mark ${mb(memKb(worker.pid!, "VmHWM"))}, ${mb(peakBefore)} before the run), ${mb(after)} after`);

await stopWorkers([worker]);
await web.stop();
await closeQueues();
await closeRedis();
await closeDb();
await drop();
clearTimeout(deadline);
process.exit(0);
