// Live fan-out (target: 1,000 concurrent SSE clients, event p99 ≤ 100 ms): one `next start`
// process, 1,000 loopback clients on /api/events, events published to the team stream; beside it,
// in the same run and alternating with it, the ceiling: a bare node:http process fanning the same
// stream out to the same number of clients (bench/sse-ceiling.ts). Prints delivery latency for
// both and the web process's memory as plain lines.
// Run: node --import tsx bench/sse.ts   (CLIENTS, EVENTS, EVENT_GAP_MS, ROUNDS override the sizes).
// The build in .next-sse is made once; delete that folder to measure changed code.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { createServer } from "node:net";
import { benchEnvironment, median, percentile, root, sleep } from "./lib";
import { startWeb, treeRssMb } from "./web";

const CLIENTS = Number(process.env.CLIENTS ?? 1_000);
const EVENTS = Number(process.env.EVENTS ?? 50);
const EVENT_GAP_MS = Number(process.env.EVENT_GAP_MS ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const TARGET_P99_MS = 100;
const DIST = ".next-sse";
const deadline = setTimeout(() => { console.error("bench:sse gave up after 15 minutes"); process.exit(1); }, 900_000);

const { env, drop } = await benchEnvironment("sse");
const { getDb, closeDb } = await import("@/lib/db");
const { issueSecret } = await import("@/lib/auth/tokens");
const { announce } = await import("@/lib/events/publish");
const { teamStreamKey } = await import("@/lib/events/streams");
const { SseParser } = await import("@/lib/events/sse-parse");
const { closeRedis, getRedis, readyRedis } = await import("@/lib/redis/connections");

const team = await getDb().team.create({ data: { name: "SSE bench", slug: `sse-${randomBytes(3).toString("hex")}` } });
const { token, prefix, tokenHash } = issueSecret("api");
await getDb().apiToken.create({ data: { teamId: team.id, role: "viewer", name: "bench", tokenHash, prefix } });

const web = await startWeb(DIST, env);
const auth = { authorization: `Bearer ${token}` };
const ceiling = await startCeiling();

const webRssMb = () => treeRssMb(web.pid);
const redisClients = async () => ((await (await readyRedis(getRedis("producer"))).client("LIST")) as string).trim().split("\n").length;

async function startCeiling(): Promise<{ base: string; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
  });
  const child = spawn(process.execPath, ["--import", "tsx", "bench/sse-ceiling.ts", String(port), env.REDIS_URL, teamStreamKey(team.id)], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  process.on("exit", () => child.kill("SIGKILL"));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (c) => { if (String(c).includes("listening")) resolve(); });
    child.once("exit", () => reject(new Error("the ceiling's server exited")));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

type Round = { connectSeconds: number; latencies: number[]; missing: number; rssConnected?: number; rssAfter?: number; redisConnected?: number };

// CLIENTS connections to `base`/api/events, then EVENTS announcements EVENT_GAP_MS apart.
async function fanOut(base: string, headers: Record<string, string>, measureWeb: boolean): Promise<Round> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const received = new Array<number>(CLIENTS).fill(0);
  const requests: http.ClientRequest[] = [];
  const openClient = (i: number) => new Promise<void>((resolve, reject) => {
    const parser = new SseParser();
    const req = http.get(`${base}/api/events`, { agent, headers: { ...headers, accept: "text/event-stream" } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`client ${i}: HTTP ${res.statusCode}`));
      res.setEncoding("utf8");
      res.on("data", (text: string) => {
        for (const m of parser.push(text)) {
          if (m.kind !== "event") continue;
          if (m.event === "ready") { resolve(); continue; }
          const at = sentAt.get(JSON.parse(m.data).message);
          if (at !== undefined) { latencies.push(performance.now() - at); received[i]++; }
        }
      });
    });
    req.on("error", (err) => { if (!req.destroyed) reject(err); });
    requests.push(req);
  });
  const t0 = performance.now();
  for (let i = 0; i < CLIENTS; i += 100) await Promise.all(Array.from({ length: Math.min(100, CLIENTS - i) }, (_, j) => openClient(i + j)));
  const connectSeconds = (performance.now() - t0) / 1000;
  await sleep(1_000);
  const round: Round = { connectSeconds, latencies, missing: 0 };
  if (measureWeb) { round.rssConnected = webRssMb(); round.redisConnected = await redisClients(); }
  for (let n = 0; n < EVENTS; n++) {
    const message = `bench-${randomBytes(4).toString("hex")}-${n}`;
    sentAt.set(message, performance.now());
    await announce(team.id, { type: "activity", message });
    await sleep(EVENT_GAP_MS);
  }
  for (const until = Date.now() + 10_000; latencies.length < CLIENTS * EVENTS && Date.now() < until;) await sleep(50);
  if (measureWeb) round.rssAfter = webRssMb();
  round.missing = received.filter((c) => c < EVENTS).length;
  for (const r of requests) r.destroy();
  await sleep(2_000);
  return round;
}

// Warm the route once so the measurement does not include its first compilation/load.
await new Promise<void>((resolve) => { http.get(`${web.base}/api/events`, { headers: auth }, (res) => { res.destroy(); resolve(); }); });
await sleep(500);
const rssBefore = webRssMb();
const redisBefore = await redisClients();

const round = (x: number) => Math.round(x * 10) / 10;
const p = (l: number[]) => `p50 ${round(median(l))} ms, p99 ${round(percentile(l, 99))} ms, max ${round(Math.max(...l))} ms`;
const nextRounds: Round[] = [];
const ceilingRounds: Round[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const n = await fanOut(web.base, auth, true);
  nextRounds.push(n);
  const c = await fanOut(ceiling.base, {}, false);
  ceilingRounds.push(c);
  console.log(`round ${r + 1}: /api/events ${p(n.latencies)} (${n.latencies.length} of ${CLIENTS * EVENTS} received, ${n.missing} clients missing any, connected in ${round(n.connectSeconds)} s); ceiling ${p(c.latencies)} (${c.latencies.length} received, connected in ${round(c.connectSeconds)} s)`);
}
const rssClosed = webRssMb();
const all = (rounds: Round[]) => rounds.flatMap((x) => x.latencies);
const nextAll = all(nextRounds);
const ceilingAll = all(ceilingRounds);
const p99 = percentile(nextAll, 99);
console.log(`clients: ${CLIENTS} concurrent SSE connections per round, ${ROUNDS} rounds; events: ${EVENTS} per round, ${EVENT_GAP_MS} ms apart`);
console.log(`latency publish→client through /api/events (next start): ${p(nextAll)}; ${nextAll.length} of ${CLIENTS * EVENTS * ROUNDS} deliveries received`);
console.log(`ceiling, same run (a bare node:http process fanning the same stream out): ${p(ceilingAll)}; ${ceilingAll.length} received`);
console.log(`target p99 ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS ? "met" : "not met"} (${round(p99)} ms, ${round(p99 / percentile(ceilingAll, 99))}× the ceiling's p99, ${round(median(nextAll) / median(ceilingAll))}× its p50)`);
const last = nextRounds[nextRounds.length - 1];
console.log(`web RSS: ${round(rssBefore)} MB before clients, ${round(last.rssConnected!)} MB with ${CLIENTS} connected (${round(((last.rssConnected! - rssBefore) * 1024) / CLIENTS)} KB per client), ${round(last.rssAfter!)} MB after the events, ${round(rssClosed)} MB 2 s after they left`);
console.log(`redis connections (server-wide): ${redisBefore} before clients, ${last.redisConnected} with ${CLIENTS} connected to the web process`);

ceiling.stop();
await web.stop();
await closeRedis();
await closeDb();
await drop();
clearTimeout(deadline);
