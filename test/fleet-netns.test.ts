import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { closeRunnerWake } from "@/lib/runners/wake";
import { createTeamWithProject, waitForCount } from "./helpers/fixtures";
import { expectEveryPromptOnce, expectLostBySweep } from "./helpers/chaos-loop";
import { FLEET_ENV, fleetProject, HOST_SLOTS, NetFleet, peakRunning, type FleetHost } from "./helpers/fleet";
import { namespacesUnavailable, removeLeftoverHosts } from "./helpers/netns";
import { startRunnerApi } from "./helpers/runner-http";
import { runnerToken } from "./helpers/runners";

// The runner API is served from this process (the web server of the root namespace): it gives
// remote runs the same lease as the workers give theirs.
Object.assign(process.env, FLEET_ENV);

const unavailable = namespacesUnavailable();
if (unavailable) console.warn(`fleet-netns: skipped, network namespaces cannot be made here (${unavailable})`);

describe.skipIf(unavailable)("a fleet over two hosts (network namespaces, each with a spawn worker and a remote runner)", () => {
  let fleet: NetFleet;
  let team: { id: string };
  let profile: { id: string };
  const host: Record<"a" | "b", FleetHost | undefined> = { a: undefined, b: undefined };
  let stopApi: () => Promise<void>;

  beforeAll(async () => {
    removeLeftoverHosts();
    ({ team, profile } = await createTeamWithProject({ loopEnabled: false }));
    const api = await startRunnerApi();
    stopApi = api.stop;
    fleet = new NetFleet(api.port, await runnerToken(team.id));
    host.a = await fleet.start("a");
  });
  afterAll(async () => {
    await fleet?.stop();
    await stopApi?.();
    await closeRunnerWake();
  });

  const agentId = async (h: FleetHost) => (await getDb().agent.findFirstOrThrow({ where: { teamId: team.id, name: h.agentName } })).id;

  /** One project on the workers and one on the runners, the same prompts each; waits for both to finish. */
  async function workload(opts: { prompts: number; sleepMs: number }, during?: () => Promise<void>) {
    const projects = await Promise.all([false, true].map((remote) => fleetProject(team, profile, { ...opts, remote, maxParallel: 4 * HOST_SLOTS })));
    for (const p of projects) await enqueueTick(p.id, "fleet start");
    await during?.();
    const done = () => getDb().prompt.count({ where: { projectId: { in: projects.map((p) => p.id) }, status: "done" } });
    await waitForCount("every prompt done", done, 2 * opts.prompts, 90_000).catch((err: Error) => { throw new Error(`${err.message}\n${fleet.output()}`); });
    const runs = (projectId: string) => getDb().run.findMany({ where: { projectId }, orderBy: { queuedAt: "asc" } });
    const [local, remote] = projects;
    return { local, remote, localRuns: await runs(local.id), remoteRuns: await runs(remote.id) };
  }

  /** Every prompt done once; on failure, each run's holder and times, and the hosts' output. */
  async function expectDoneOnce(projectId: string, lost: number) {
    await expectEveryPromptOnce(projectId, { lost }).catch(async (err: Error) => {
      const runs = await getDb().run.findMany({ where: { projectId }, include: { prompt: true }, orderBy: { queuedAt: "asc" } });
      const t = (d: Date | null) => d?.toISOString().slice(11, 23) ?? "-";
      const lines = runs.map((r) => `P${r.prompt?.number} ${r.status} ${r.workerId} queued ${t(r.queuedAt)} started ${t(r.startedAt)} lease ${t(r.leaseExpiresAt)} finished ${t(r.finishedAt)}`);
      throw new Error(`${err.message}\n${lines.join("\n")}\n${fleet.output()}`);
    });
  }

  it("one host: its worker and its runner do every prompt once, never more than its slots at once", async () => {
    const w = await workload({ prompts: 6, sleepMs: 1500 });
    for (const p of [w.local, w.remote]) await expectDoneOnce(p.id, 0);
    expect(new Set(w.localRuns.map((r) => r.workerId))).toEqual(new Set([host.a!.workerId]));
    expect(new Set(w.remoteRuns.map((r) => r.remoteAgentId))).toEqual(new Set([await agentId(host.a!)]));
    // A remote run's holder is its runner, never a worker.
    expect(w.remoteRuns.map((r) => r.remote && r.workerId === `runner:${r.remoteAgentId}`)).toEqual(w.remoteRuns.map(() => true));
    expect(peakRunning(w.localRuns)).toBeLessThanOrEqual(HOST_SLOTS);
    expect(peakRunning(w.remoteRuns)).toBeLessThanOrEqual(HOST_SLOTS);
  }, 150_000);

  it("two hosts: the work spreads over both, and more agents run at once than one host's slots", async () => {
    host.a ??= await fleet.start("a");
    host.b = await fleet.start("b");
    const w = await workload({ prompts: 8, sleepMs: 3000 });
    for (const p of [w.local, w.remote]) await expectDoneOnce(p.id, 0);
    expect(new Set(w.localRuns.map((r) => r.workerId))).toEqual(new Set([host.a.workerId, host.b.workerId]));
    expect(new Set(w.remoteRuns.map((r) => r.remoteAgentId))).toEqual(new Set([await agentId(host.a), await agentId(host.b)]));
    // Each host alone never exceeds its slots (the first test): beyond them is the second host's work.
    expect(peakRunning(w.localRuns)).toBeGreaterThan(HOST_SLOTS);
    expect(peakRunning(w.remoteRuns)).toBeGreaterThan(HOST_SLOTS);
    for (const h of [host.a, host.b]) {
      const agent = await agentId(h);
      expect(peakRunning(w.localRuns.filter((r) => r.workerId === h.workerId))).toBeLessThanOrEqual(HOST_SLOTS);
      expect(peakRunning(w.remoteRuns.filter((r) => r.remoteAgentId === agent))).toBeLessThanOrEqual(HOST_SLOTS);
    }
  }, 200_000);

  it("killing a whole host loses nothing: its runs are lost by their lease, re-run once on the other host, never twice at once", async () => {
    host.a ??= await fleet.start("a");
    host.b ??= await fleet.start("b");
    const [a, b] = [host.a, host.b];
    const [agentA, agentB] = [await agentId(a), await agentId(b)];
    const db = getDb();
    let killedAt = 0;
    let killed: Array<{ id: string; promptId: string | null }> = [];
    const w = await workload({ prompts: 6, sleepMs: 6000 }, async () => {
      const onB = { status: "running" as const, OR: [{ workerId: b.workerId }, { remoteAgentId: agentB }] };
      await waitForCount("host b running a worker run and a runner run", async () =>
        (await db.run.count({ where: { ...onB, workerId: b.workerId } }) > 0 ? 1 : 0) + (await db.run.count({ where: { ...onB, remoteAgentId: agentB } }) > 0 ? 1 : 0), 2, 60_000);
      await fleet.kill(b);
      killedAt = Date.now();
      // Nothing of host b runs any more: whatever it held now, only the sweeper may end.
      killed = await db.run.findMany({ where: { status: { in: ["starting", "running"] }, OR: [{ workerId: b.workerId }, { remoteAgentId: agentB }] } });
    });
    expect(b.worker.exitCode ?? b.worker.signalCode).toBe("SIGKILL");
    expect(b.runner.exitCode ?? b.runner.signalCode).toBe("SIGKILL");
    const lostOf = (runs: typeof w.localRuns) => runs.filter((r) => r.status === "lost");
    const lost = [...lostOf(w.localRuns), ...lostOf(w.remoteRuns)];
    // Every run host b held when it died is lost, and only host b's runs are. (A held poll the web
    // server answered as b died can hand b one more run after that look: it is b's, and lost too.)
    expect(lost.map((r) => r.id)).toEqual(expect.arrayContaining(killed.map((r) => r.id)));
    expect(lost.filter((r) => r.workerId !== b.workerId && r.remoteAgentId !== agentB)).toEqual([]);
    expect(lostOf(w.localRuns).length).toBeGreaterThan(0);
    expect(lostOf(w.remoteRuns).length).toBeGreaterThan(0);
    await expectDoneOnce(w.local.id, lostOf(w.localRuns).length);
    await expectDoneOnce(w.remote.id, lostOf(w.remoteRuns).length);
    // Lost by the sweeper once the lease ran out, never before. (No upper bound on when: a heartbeat
    // host b sent before it died may reach a slowed web server any time later and renew once more;
    // a lease renewed for ever would leave the run running and fail expectDoneOnce above.)
    expectLostBySweep(lost);
    for (const r of lost) expect(r.finishedAt!.getTime()).toBeGreaterThan(killedAt);
    // The prompts host b lost were done on host a, after the loss.
    for (const r of lost) {
      const rerun = [...w.localRuns, ...w.remoteRuns].find((x) => x.promptId === r.promptId && x.status === "succeeded")!;
      expect(r.remote ? rerun.remoteAgentId : rerun.workerId).toBe(r.remote ? agentA : a.workerId);
      expect(rerun.queuedAt.getTime()).toBeGreaterThanOrEqual(r.finishedAt!.getTime());
    }
  }, 240_000);
});
