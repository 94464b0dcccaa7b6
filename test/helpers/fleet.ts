// A fleet over network namespaces: each "host" runs its own spawn worker and its own remote
// runner, reaching Postgres, Redis and the runner API of the root namespace over its veth.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDb } from "@/lib/db";
import { createDemoRepo } from "@/lib/demo/repo";
import { createProject } from "@/lib/projects/create";
import { upsertTickScheduler } from "@/lib/queues";
import { tempRepoPath, waitUntil } from "./fixtures";
import { forward, killHost, makeHost, removeHost, startInHost, type Host } from "./netns";
import { CHAOS_ENV, TICK_MS } from "./chaos-loop";

/** What one host may run at once: its worker's spawn slots, and as many on its runner. */
export const HOST_SLOTS = 2;
// Five processes and their agents share two loaded cores here: a longer lease than the chaos
// tests' keeps a stalled but live host from losing runs, at the price of a slower failover.
const FLEET_LEASE_TTL_MS = 10_000;
export const FLEET_ENV = { ...CHAOS_ENV, LEASE_TTL_MS: String(FLEET_LEASE_TTL_MS) };

type Child = ReturnType<typeof startInHost>;
export interface FleetHost { host: Host; worker: Child; runner: Child; agentName: string; workerId: string }

const withAddress = (url: string, address: string, port: number) => {
  const u = new URL(url);
  u.hostname = address;
  u.port = String(port);
  return u.toString();
};

export class NetFleet {
  readonly hosts: FleetHost[] = [];
  private readonly stops: Array<() => void> = [];
  constructor(private readonly apiPort: number, private readonly runnerToken: string) {}

  async start(name: string): Promise<FleetHost> {
    const host = makeHost(name, this.hosts.length);
    this.stops.push(() => removeHost(host));
    const pgPort = Number(new URL(process.env.DATABASE_URL!).port || 5432);
    const redisPort = Number(new URL(process.env.REDIS_URL!).port || 6379);
    const [pg, redis, api] = await Promise.all([pgPort, redisPort, this.apiPort].map((p) => forward(host.gateway, p)));
    this.stops.push(pg.stop, redis.stop, api.stop);
    const workerId = `host-${name}`;
    const worker = startInHost(host, "workers/main.ts", [], {
      ...process.env, ...FLEET_ENV, LOG_LEVEL: "info", WORKER_ID: workerId, SPAWN_CONCURRENCY: String(HOST_SLOTS),
      DATABASE_URL: withAddress(process.env.DATABASE_URL!, host.gateway, pg.port),
      REDIS_URL: withAddress(process.env.REDIS_URL!, host.gateway, redis.port),
    });
    const agentName = `runner-${name}`;
    // The runner gets nothing of the server's configuration: its URL and its token.
    const runner = startInHost(host, "runner/main.ts", [
      "--url", `http://${host.gateway}:${api.port}`, "--work-dir", mkdtempSync(join(tmpdir(), "rm-fleet-runner-")),
      "--name", agentName, "--max-concurrent", String(HOST_SLOTS),
    ], { PATH: process.env.PATH!, HOME: process.env.HOME!, RINGMASTER_RUNNER_TOKEN: this.runnerToken } as unknown as NodeJS.ProcessEnv);
    const entry = { host, worker, runner, agentName, workerId };
    this.hosts.push(entry);
    await waitUntil(`${name}'s worker and runner to start`, async () => {
      for (const c of [worker, runner]) if (c.exitCode !== null) throw new Error(`a process of ${name} exited:\n${this.output()}`);
      return worker.output().includes("workers started") && runner.output().includes(`registered as "${agentName}"`);
    }, 90_000).catch((err: Error) => { throw new Error(`${err.message}\n${this.output()}`); });
    return entry;
  }

  /** Every process of the host, at once, with SIGKILL. */
  async kill(entry: FleetHost): Promise<void> {
    await killHost(entry.host);
  }

  output = () => this.hosts.map((h) => `--- ${h.host.name} worker\n${h.worker.output().slice(-3000)}\n--- ${h.host.name} runner\n${h.runner.output().slice(-3000)}`).join("\n");

  async stop(): Promise<void> {
    for (const h of this.hosts.splice(0)) await killHost(h.host).catch(() => {});
    for (const stop of this.stops.splice(0).reverse()) stop();
  }
}

/** A project of the team whose prompts are demo agents sleeping `sleepMs` and writing a file each. */
export async function fleetProject(team: { id: string }, profile: { id: string }, opts: { prompts: number; sleepMs: number; remote: boolean; maxParallel: number }) {
  const db = getDb();
  const project = await createProject(team.id, {
    name: `Fleet ${Math.random().toString(36).slice(2, 8)}`, repoKind: "local", repoPath: createDemoRepo(tempRepoPath()), baseBranch: "main", executorProfileId: profile.id,
  }, { loopEnabled: true, maxParallel: opts.maxParallel });
  await db.projectSettings.update({ where: { projectId: project.id }, data: { spawnCooldownMs: 0, tickIntervalMs: TICK_MS, useRunners: opts.remote } });
  await upsertTickScheduler(project.id, TICK_MS);
  await db.prompt.createMany({
    data: Array.from({ length: opts.prompts }, (_, i) => ({
      projectId: project.id, planningKey: project.planningKey, number: i + 1, title: `p${i + 1}`,
      body: `sleep ${opts.sleepMs}\n\n\`\`\`file f/${i + 1}.txt\n${i + 1}\n\`\`\`\n`,
    })),
  });
  return project;
}

/** The most runs with an agent live at once (from its start to its end), by the runs' own times. */
export function peakRunning(runs: ReadonlyArray<{ startedAt: Date | null; finishedAt: Date | null }>): number {
  const events = runs.filter((r) => r.startedAt).flatMap((r) => [{ t: r.startedAt!.getTime(), d: +1 }, { t: (r.finishedAt ?? new Date()).getTime(), d: -1 }])
    .sort((a, b) => a.t - b.t || a.d - b.d);
  let live = 0;
  let peak = 0;
  for (const e of events) peak = Math.max(peak, (live += e.d));
  return peak;
}
