// The sender of bench:webhooks, a second process on loopback: signed deliveries as fast as
// `concurrency` connections allow, or paced at `rate` per second (open loop: each request leaves
// on its schedule whether or not earlier ones were answered). Prints its figures as JSON.
// Run by bench/webhooks.ts: node --import tsx bench/webhook-sender.ts <github|slack> <url> <secret> <count> <concurrency> <tag> [rate]
import http from "node:http";
import { payloadOf, signedHeaders, slackRequest } from "./webhook-payloads";

const [kind, url, secret, count, concurrency, tag, rate] = process.argv.slice(2);
const total = Number(count);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });
// Issue comments on a plain issue: verified, stored, queued, then ignored by the worker.
const github = payloadOf("issue_comment", "created");
const latencies: number[] = [];
const statuses: Record<number, number> = {};

const send = (i: number) => new Promise<void>((resolve) => {
  const { raw, headers } = kind === "slack" ? slackRequest(secret, i, tag) : { raw: github, headers: signedHeaders("issue_comment", github, secret, `${tag}-${i}`) };
  const started = performance.now();
  const req = http.request(url, { method: "POST", agent, headers }, (res) => {
    res.resume();
    res.on("end", () => {
      latencies.push(performance.now() - started);
      statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
      resolve();
    });
  });
  req.on("error", () => { statuses[0] = (statuses[0] ?? 0) + 1; resolve(); });
  req.end(raw);
});

const t0 = performance.now();
if (rate) {
  const gapMs = 1000 / Number(rate);
  const sent: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = t0 + i * gapMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent.push(send(i));
  }
  await Promise.all(sent);
} else {
  let next = 0;
  await Promise.all(Array.from({ length: Number(concurrency) }, async () => {
    while (next < total) await send(next++);
  }));
}
const elapsedMs = performance.now() - t0;
agent.destroy();
const { user, system } = process.cpuUsage();
process.stdout.write(JSON.stringify({ elapsedMs, latencies, statuses, cpuMs: (user + system) / 1000 }));
process.exit(0);
