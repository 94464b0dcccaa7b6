// Live fan-out (target, docs/ARCHITECTURE.md: 1,000 concurrent SSE clients, event p99 ≤ 100 ms):
// one `next start` process, 1,000 loopback clients on /api/events, events published to
// the team stream; prints delivery latency and the web process's memory as plain lines.
// Run: node --import tsx bench/sse.ts   (CLIENTS, EVENTS, EVENT_GAP_MS override the sizes).
// The build in .next-sse is made once; delete that folder to measure changed code.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { benchEnvironment, median, percentile, sleep } from "./lib";
import { startWeb, treeRssMb } from "./web";

const CLIENTS = Number(process.env.CLIENTS ?? 1_000);
const EVENTS = Number(process.env.EVENTS ?? 50);
const EVENT_GAP_MS = Number(process.env.EVENT_GAP_MS ?? 100);
const DIST = ".next-sse";
const deadline = setTimeout(() => { console.error("bench:sse gave up after 10 minutes"); process.exit(1); }, 600_000);

const { env, drop } = await benchEnvironment("sse");
const { getDb, closeDb } = await import("@/lib/db");
const { issueSecret } = await import("@/lib/auth/tokens");
const { announce } = await import("@/lib/events/publish");
const { SseParser } = await import("@/lib/events/sse-parse");
const { closeRedis, getRedis, readyRedis } = await import("@/lib/redis/connections");

const team = await getDb().team.create({ data: { name: "SSE bench", slug: `sse-${randomBytes(3).toString("hex")}` } });
const { token, prefix, tokenHash } = issueSecret("api");
await getDb().apiToken.create({ data: { teamId: team.id, role: "viewer", name: "bench", tokenHash, prefix } });

const web = await startWeb(DIST, env);
const base = web.base;

const webRssMb = () => treeRssMb(web.pid);
const redisClients = async () => ((await (await readyRedis(getRedis("producer"))).client("LIST")) as string).trim().split("\n").length;

// Warm the route once so the measurement does not include its first compilation/load.
await new Promise<void>((resolve) => {
  http.get(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } }, (res) => { res.destroy(); resolve(); });
});
await sleep(500);
const rssBefore = webRssMb();
const redisBefore = await redisClients();

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const sentAt = new Map<string, number>();
const latencies: number[] = [];
const received = new Array<number>(CLIENTS).fill(0);
const requests: http.ClientRequest[] = [];

function openClient(i: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const parser = new SseParser();
    const req = http.get(`${base}/api/events`, { agent, headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } }, (res) => {
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
}

const t0 = performance.now();
for (let i = 0; i < CLIENTS; i += 100) await Promise.all(Array.from({ length: Math.min(100, CLIENTS - i) }, (_, j) => openClient(i + j)));
const connectSeconds = (performance.now() - t0) / 1000;
await sleep(1_000);
const rssConnected = webRssMb();
const redisConnected = await redisClients();

for (let n = 0; n < EVENTS; n++) {
  const message = `bench-${n}`;
  sentAt.set(message, performance.now());
  await announce(team.id, { type: "activity", message });
  await sleep(EVENT_GAP_MS);
}
for (const until = Date.now() + 10_000; latencies.length < CLIENTS * EVENTS && Date.now() < until;) await sleep(50);
const rssAfter = webRssMb();

for (const r of requests) r.destroy();
await sleep(2_000);
const rssClosed = webRssMb();

const round = (x: number) => Math.round(x * 10) / 10;
console.log(`clients: ${CLIENTS} concurrent SSE connections on one web process (connected in ${round(connectSeconds)} s)`);
console.log(`events: ${EVENTS} published, ${latencies.length} of ${CLIENTS * EVENTS} deliveries received; clients missing any: ${received.filter((c) => c < EVENTS).length}`);
console.log(`latency publish→client: p50 ${round(median(latencies))} ms, p99 ${round(percentile(latencies, 99))} ms, max ${round(Math.max(...latencies))} ms`);
console.log(`web RSS: ${round(rssBefore)} MB before clients, ${round(rssConnected)} MB with ${CLIENTS} connected (${round(((rssConnected - rssBefore) * 1024) / CLIENTS)} KB per client), ${round(rssAfter)} MB after the events, ${round(rssClosed)} MB 2 s after they left`);
console.log(`redis connections (server-wide): ${redisBefore} before clients, ${redisConnected} with ${CLIENTS} connected`);

await web.stop();
await closeRedis();
await closeDb();
await drop();
clearTimeout(deadline);
