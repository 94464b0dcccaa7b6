// Where an accepted GitHub delivery's time goes inside the intake, in one process with no web
// framework around it: the same signed deliveries as bench:webhooks, 32 at a time, through
// each stage in turn (parse and verify alone; + the INSERT; + the enqueue: the whole intake);
// then what the github worker does with them: processing one delivery a job, and 32 a job.
// Prints wall time and this process's CPU per delivery for each, beside the load average.
// Run: node --import tsx bench/webhook-stages.ts   (DELIVERIES overrides the size)
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { FULL_NAME, payloadOf, signedHeaders } from "./webhook-payloads";

const SECRET = `bench-${randomBytes(12).toString("hex")}`;
const DELIVERIES = Number(process.env.DELIVERIES ?? 3_000);
const CONCURRENCY = 32;
const { benchEnvironment } = await import("./lib");
const { env, drop } = await benchEnvironment("stages");
Object.assign(process.env, { ...env, GITHUB_WEBHOOK_SECRET: SECRET, ENCRYPTION_KEY: randomBytes(32).toString("hex") });

const { getDb, closeDb } = await import("@/lib/db");
const { closeRedis } = await import("@/lib/redis/connections");
const { closeQueues } = await import("@/lib/queues");
const { createProject } = await import("@/lib/projects/create");
const { receiveGithubDelivery, signatureMatches } = await import("@/lib/github/intake");
const { repoTargets } = await import("@/lib/github/webhook-secrets");
const { storeDelivery } = await import("@/lib/github/delivery-store");
const { processDeliveries } = await import("@/lib/github/deliveries");

const team = await getDb().team.create({ data: { name: "Stages", slug: `st-${randomBytes(3).toString("hex")}` } });
const profile = await getDb().agentProfile.create({ data: { teamId: team.id, name: "demo", adapter: "demo" } });
await createProject(team.id, { name: "widgets", repoKind: "github", githubOwner: "acme", githubRepo: "widgets", baseBranch: "main", executorProfileId: profile.id });
const raw = payloadOf("issue_comment", "created");
const requests = (tag: string) => Array.from({ length: DELIVERIES }, (_, i) => new Headers(signedHeaders("issue_comment", raw, SECRET, `${tag}-${i}`)));

async function stage(name: string, fn: (h: Headers) => Promise<unknown>, all = requests(`${name.replace(/\W/g, "")}-${randomBytes(2).toString("hex")}`)) {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (next < all.length) await fn(all[next++]); }));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(`  ${name.padEnd(44)} ${(DELIVERIES / (wall / 1000)).toFixed(0).padStart(6)}/s  wall ${(wall / DELIVERIES).toFixed(3)} ms, CPU ${((cpu.user + cpu.system) / 1000 / DELIVERIES).toFixed(3)} ms per delivery`);
}

console.log(`intake stages, ${DELIVERIES} deliveries of ${raw.length} bytes, ${CONCURRENCY} at a time, in-process (load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}, ${cpus().length} cores)`);
await stage("warm-up (whole intake)", (h) => receiveGithubDelivery(h, raw));
await stage("JSON.parse", async () => JSON.parse(raw));
await stage("HMAC verify", async (h) => signatureMatches(SECRET, raw, h.get("x-hub-signature-256")!));
await stage("parse + cached secret lookup + verify", async (h) => {
  const p = JSON.parse(raw);
  const targets = await repoTargets(p.repository.full_name);
  return targets.find((t) => t.secret && signatureMatches(t.secret, raw, h.get("x-hub-signature-256")!));
});
await stage("the INSERT alone (batched)", (h) => storeDelivery({ deliveryId: h.get("x-github-delivery")!, event: "issue_comment", action: "created", projectId: null, status: "received", payload: raw, subject: "#1" }));
await stage("whole intake (verify, INSERT, enqueue)", (h) => receiveGithubDelivery(h, raw));
// Processing: the deliveries the whole intake just stored for the project, claimed, dispatched
// (an issue comment mentioning no one: ignored) and settled; one a job, then 32 a job.
const storedIds = async (tag: string) => {
  const all = requests(tag);
  for (const h of all) await receiveGithubDelivery(h, raw);
  return all.map((h) => h.get("x-github-delivery")!);
};
const one = await storedIds(`one-${randomBytes(2).toString("hex")}`);
await stage("processing, one delivery a job", (h) => processDeliveries([h.get("x-github-delivery")!]), one.map((id) => new Headers({ "x-github-delivery": id })));
const batched = await storedIds(`batch-${randomBytes(2).toString("hex")}`);
const jobs = Array.from({ length: Math.ceil(batched.length / 32) }, (_, i) => batched.slice(i * 32, i * 32 + 32));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (const job of jobs) await processDeliveries(job);
const [wall, cpu] = [performance.now() - t0, process.cpuUsage(cpu0)];
console.log(`  ${"processing, 32 deliveries a job".padEnd(44)} ${(DELIVERIES / (wall / 1000)).toFixed(0).padStart(6)}/s  wall ${(wall / DELIVERIES).toFixed(3)} ms, CPU ${((cpu.user + cpu.system) / 1000 / DELIVERIES).toFixed(3)} ms per delivery`);
console.log(`  (repository ${FULL_NAME})`);

await closeQueues();
await closeRedis();
await closeDb();
await drop();
process.exit(0);
