import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { runTick } from "@/lib/loop/tick";
import { claimTrigger } from "@/lib/runners/claim";
import { silentAfterMs } from "@/lib/routing/agents";
import { createTeamWithProject, addPrompt } from "./helpers/fixtures";
import { activity, queuedJobs } from "./helpers/runs";
import { agent, processStored, slackTeam, startSlackDouble } from "./helpers/slack-fixtures";

// A prompt routed to one runner agent is pinned to it: the tick queues its run for that agent,
// no other agent's poll takes it, and once the agent is gone the pin is released.
const double = await startSlackDouble();
afterAll(() => double.stop());

const LEASE_TTL_MS = getEnv().LEASE_TTL_MS;
const poll = (a: { id: string }, now = new Date()) =>
  getDb().agent.findUniqueOrThrow({ where: { id: a.id } }).then((row) => claimTrigger(row, { now, leaseTtlMs: LEASE_TTL_MS }));
const goQuiet = (a: { id: string }) =>
  getDb().agent.update({ where: { id: a.id }, data: { lastSeenAt: new Date(Date.now() - silentAfterMs(LEASE_TTL_MS) - 60_000) } });

async function pinnedSetup(opts: { useRunners: boolean }) {
  const base = await createTeamWithProject({ maxParallel: 1 });
  await getDb().projectSettings.update({ where: { projectId: base.project.id }, data: { useRunners: opts.useRunners, spawnCooldownMs: 0 } });
  const t = await slackTeam(double, undefined, base);
  const backend = await agent(t.team.id, "backend");
  const frontend = await agent(t.team.id, "frontend");
  const ts = double.ts();
  expect((await t.send({ type: "message", channel: t.channelId, user: "U0ALICE", text: "backend: add a health check", ts })).status).toBe(200);
  expect(await processStored(t.connection.id)).toEqual(["processed"]);
  const prompt = await getDb().prompt.findFirstOrThrow({ where: { projectId: t.project.id } });
  return { t, backend, frontend, prompt };
}

const runsOf = (projectId: string) => getDb().run.findMany({ where: { projectId }, orderBy: { queuedAt: "asc" } });

describe("a prompt routed to one agent", () => {
  it("is pinned to it; the tick queues its run for that agent alone, on a project not on runners; limits hold", async () => {
    const { t, backend, frontend, prompt } = await pinnedSetup({ useRunners: false });
    expect(prompt.pinnedAgentId).toBe(backend.id);
    await addPrompt(t.project.id, { number: 2, title: "Unpinned work", body: "anything" });

    const tick = await runTick(t.project.id);
    expect(tick).toMatchObject({ skipped: false, decision: { kind: "spawn_executor", promptId: prompt.id } });
    const [run] = await runsOf(t.project.id);
    expect(run).toMatchObject({ promptId: prompt.id, remote: true, remoteAgentId: backend.id, status: "queued", kind: "executor" });
    // Not the spawn workers' run: no spawn order for it.
    expect((await queuedJobs("spawn")).map(([, d]) => d)).toEqual([]);

    // Max parallel 1: the pinned run holds the project's slot, so the other prompt waits.
    await runTick(t.project.id);
    expect((await runsOf(t.project.id)).map((r) => r.promptId)).toEqual([prompt.id]);

    // Another agent's poll does not take it; the pinned agent's does, as its assigned task.
    expect(await poll(frontend)).toBeNull();
    expect(await poll(backend)).toEqual({ type: "task_assigned", runId: run.id });
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "starting", remoteAgentId: backend.id });
    expect(await getDb().run.count({ where: { promptId: prompt.id } })).toBe(1);
  });

  it("stays out of the runner pool while it waits for its agent, even one gone quiet; the tick then releases it to the pool", async () => {
    const { t, backend, frontend, prompt } = await pinnedSetup({ useRunners: true });
    await runTick(t.project.id);
    const [run] = await runsOf(t.project.id);
    expect(run).toMatchObject({ promptId: prompt.id, remote: true, remoteAgentId: backend.id, status: "queued" });

    // The pool takes a run whose holder went quiet, but not one pinned to another agent.
    await goQuiet(backend);
    expect(await poll(frontend)).toBeNull();

    // The agent is gone: the next tick drops the pin and puts the run in the pool, once.
    await runTick(t.project.id);
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ pinnedAgentId: null, status: "in_progress" });
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ remote: true, remoteAgentId: null, status: "queued" });
    expect((await activity(t.project.id)).map((a) => a.message)).toContain(
      `#1 backend: add a health check: backend is gone, so it is no longer pinned to it; any agent of the project takes it`);
    expect(await poll(frontend)).toEqual({ type: "pool_task", runId: run.id });
    expect(await getDb().run.count({ where: { promptId: prompt.id } })).toBe(1);
  });

  it("on a project not on runners, whose agent is gone, has its queued run moved to the spawn workers", async () => {
    const { t, backend, prompt } = await pinnedSetup({ useRunners: false });
    await runTick(t.project.id);
    const [run] = await runsOf(t.project.id);
    expect(run).toMatchObject({ remote: true, remoteAgentId: backend.id });

    await getDb().agent.update({ where: { id: backend.id }, data: { status: "offline" } });
    await runTick(t.project.id);
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ remote: false, remoteAgentId: null, status: "queued" });
    expect((await queuedJobs("spawn")).map(([, d]) => d)).toContainEqual({ runId: run.id });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ pinnedAgentId: null });
    expect(await getDb().run.count({ where: { promptId: prompt.id } })).toBe(1);
  });

  it("pending, whose agent is gone before its turn, is released and run by the project's own loop", async () => {
    const { t, backend, prompt } = await pinnedSetup({ useRunners: false });
    await goQuiet(backend);
    await runTick(t.project.id);
    const [run] = await runsOf(t.project.id);
    expect(run).toMatchObject({ promptId: prompt.id, remote: false, remoteAgentId: null, status: "queued" });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ pinnedAgentId: null, status: "in_progress" });
  });

  it("an agent that is deleted unpins its prompts", async () => {
    const { backend, prompt } = await pinnedSetup({ useRunners: false });
    await getDb().agent.delete({ where: { id: backend.id } });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ pinnedAgentId: null, status: "pending" });
  });
});
