import { QUEUE_RAN_DRY } from "@/lib/activity/change";
import { describe, expect, it } from "vitest";
import { NOTICES_TITLE } from "@/lib/threads/notices";
import { getDb } from "@/lib/db";
import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { runTick } from "@/lib/loop/tick";
import { executeRun } from "@/lib/runs/execute";
import { claimPromptForRun } from "@/lib/runs/claim";
import { BudgetRefusal } from "@/lib/budgets/reserve";
import { overrideBudget } from "@/lib/loop/budget";
import { writeLedgerLines } from "@/lib/budgets/ledger";
import { addPrompt, createTeamWithProject, peakConcurrency, waitUntil } from "./helpers/fixtures";

// Priced as Sonnet 4.5: 10,000 input tokens cost $0.03.
async function budgetProject(opts: { dailyBudgetUsd: number; maxCostUsd: number | null; budgetStopsRuns?: boolean; maxParallel?: number }) {
  const fixture = await createTeamWithProject({ cooldownMs: 0, maxParallel: opts.maxParallel ?? 10 });
  await getDb().agentProfile.update({ where: { id: fixture.profile.id }, data: { model: "claude-sonnet-4-5", maxCostUsd: opts.maxCostUsd } });
  await getDb().projectSettings.update({
    where: { projectId: fixture.project.id },
    data: { dailyBudgetUsd: opts.dailyBudgetUsd, budgetStopsRuns: opts.budgetStopsRuns ?? false },
  });
  return fixture;
}

const ledgerTotal = async (projectId: string) =>
  (await getDb().spendEntry.aggregate({ where: { projectId }, _sum: { costUsd: true } }))._sum.costUsd ?? 0;
const loopState = (projectId: string) => getDb().loopState.findUniqueOrThrow({ where: { projectId } });
const liveRuns = (projectId: string) => getDb().run.count({ where: { projectId, status: { in: [...LIVE_RUN_STATUSES] } } });

/** Plays the worker: ticks, and starts every queued run at once, until `done` holds and no run is live. */
async function drive(projectId: string, done: () => Promise<boolean>) {
  const started = new Map<string, Promise<void>>();
  await waitUntil("the loop to settle", async () => {
    await runTick(projectId);
    for (const r of await getDb().run.findMany({ where: { projectId, status: "queued" } })) {
      if (!started.has(r.id)) started.set(r.id, executeRun(r.id));
    }
    return (await liveRuns(projectId)) === 0 && (await done());
  }, 180_000);
  await Promise.all(started.values());
}

describe("the spend ledger", () => {
  it("holds a run's usage line by line while the agent still works, and a replayed line counts once", async () => {
    const { project } = await budgetProject({ dailyBudgetUsd: 100, maxCostUsd: null });
    await addPrompt(project.id, { number: 1, title: "Slow", body: "usage 10000 0\nusage 20000 1000\nsleep 4000\n" });
    await runTick(project.id);
    const run = await getDb().run.findFirstOrThrow({ where: { projectId: project.id } });
    const running = executeRun(run.id);
    const lines = await waitUntil("both calls in the ledger", async () => {
      const rows = await getDb().spendEntry.findMany({ where: { runId: run.id }, orderBy: { id: "asc" } });
      return rows.filter((r) => r.key !== "result").length === 2 && rows;
    });
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("running");
    expect(lines.map((l) => [l.inputTokens, l.outputTokens, l.teamId, l.projectId, l.agentProfileId])).toEqual([
      [10000, 0, project.teamId, project.id, run.agentProfileId],
      [20000, 1000, project.teamId, project.id, run.agentProfileId],
    ]);
    await running;
    const done = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(done.status).toBe("succeeded");
    // $0.03 + $0.06 + $0.015: the run's own figure and the ledger agree.
    expect(done.costUsd).toBeCloseTo(0.105, 10);
    expect(await ledgerTotal(project.id)).toBeCloseTo(0.105, 10);

    const before = await getDb().spendEntry.count();
    const ctx = { runId: run.id, teamId: project.teamId, projectId: project.id, agentProfileId: run.agentProfileId, queuedById: null };
    await writeLedgerLines(ctx, lines.map((l) => ({ ...l, costUsd: l.costUsd })));
    expect(await getDb().spendEntry.count()).toBe(before);
    expect(await ledgerTotal(project.id)).toBeCloseTo(0.105, 10);
  });
});

describe("budgets", () => {
  it("lets twenty racing claims reserve no more than the budget has left", async () => {
    const { project, profile } = await budgetProject({ dailyBudgetUsd: 1, maxCostUsd: 0.25, maxParallel: 20 });
    const prompts = await Promise.all(Array.from({ length: 20 }, (_, i) => addPrompt(project.id, { number: i + 1, title: `P${i}`, body: "print hi\n" })));
    const results = await Promise.allSettled(prompts.map((p) =>
      claimPromptForRun({ projectId: project.id, promptId: p.id, profile, routing: {}, now: new Date(), limits: { maxExecutors: 20, cooldownMs: 0 } })));
    const admitted = results.filter((r) => r.status === "fulfilled" && r.value);
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
    expect(admitted).toHaveLength(4);
    expect(refused).toHaveLength(16);
    for (const err of refused) {
      expect(err).toBeInstanceOf(BudgetRefusal);
      expect(err.message).toBe("waiting for budget: running runs hold $1.00 of the project's daily budget of $1.00, $0.00 is spent");
    }
    const runs = await getDb().run.findMany({ where: { projectId: project.id } });
    expect(runs.map((r) => r.reservedUsd)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(await getDb().prompt.count({ where: { projectId: project.id, status: "pending" } })).toBe(16);
  });

  it("keeps ten parallel runs within $1 plus their in-flight ceilings, alerts once each, pauses the loop, and an owner's override lets work continue", async () => {
    const { project, user } = await budgetProject({ dailyBudgetUsd: 1, maxCostUsd: 0.1, maxParallel: 12 });
    // Each run spends $0.09 over three calls, under its $0.10 ceiling.
    const body = "usage 10000 0\nsleep 300\nusage 10000 0\nsleep 300\nusage 10000 0\n";
    for (let i = 1; i <= 16; i++) await addPrompt(project.id, { number: i, title: `Work ${i}`, body });

    // Ten ticks claim ten runs, each holding its $0.10 ceiling: the budget is fully held.
    for (let i = 0; i < 10; i++) await runTick(project.id);
    expect(await getDb().run.count({ where: { projectId: project.id, status: "queued" } })).toBe(10);
    await runTick(project.id);
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(10);
    expect((await loopState(project.id)).lastStatus).toBe("waiting for budget: running runs hold $1.00 of the project's daily budget of $1.00, $0.00 is spent");

    await drive(project.id, async () => (await loopState(project.id)).mode === "paused");
    const runs = await getDb().run.findMany({ where: { projectId: project.id } });
    expect(peakConcurrency(runs)).toBe(10);
    const total = await ledgerTotal(project.id);
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThan(1 + 0.1);
    expect(runs.filter((r) => r.status !== "succeeded").map((r) => [r.status, r.error])).toEqual([]);
    const state = await loopState(project.id);
    // The figure is what the ledger held when the loop paused; runs in flight then added to it.
    expect(state.pauseReason).toMatch(/^budget reached: the project's daily budget of \$1\.00 is spent \(\$1\.\d\d\); new runs are refused until the period ends or an owner raises or overrides it$/);
    const alerts = await getDb().activityEvent.findMany({ where: { projectId: project.id, type: "budgetAlert" }, orderBy: { id: "asc" } });
    // Each threshold once. Two workers that flush at once may raise 90 % while the other records
    // 80 %, so the rows' order is not the thresholds' order.
    expect(alerts.map((a) => a.message.match(/(\d+) %/)![1]).sort()).toEqual(["100", "80", "90"]);
    // The same words reach the team's conversation: one notices thread, a system turn each, no lead woken by them.
    const notices = await getDb().thread.findMany({ where: { projectId: project.id, title: NOTICES_TITLE }, include: { turns: { orderBy: { seq: "asc" } } } });
    expect(notices).toHaveLength(1);
    expect(notices[0].turns.map((t) => t.seq)).toEqual([1, 2, 3]);
    expect(notices[0].turns.map((t) => [t.actor, t.actorId, t.content]).sort()).toEqual(alerts.map((a) => ["system", "budget", a.message]).sort());
    expect(await getDb().run.count({ where: { projectId: project.id, kind: "lead" } })).toBe(0);
    const pending = await getDb().prompt.count({ where: { projectId: project.id, status: "pending" } });
    expect(pending).toBe(16 - runs.length);

    // Paused with the reason: ticks start nothing.
    await runTick(project.id);
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(runs.length);

    expect(await overrideBudget(project, "project", "day", { kind: "user", id: user.id })).toEqual({ created: true });
    expect(await overrideBudget(project, "project", "day", { kind: "user", id: user.id })).toEqual({ created: false });
    await drive(project.id, async () => (await getDb().prompt.count({ where: { projectId: project.id, status: "pending" } })) === 0);
    expect(await getDb().prompt.count({ where: { projectId: project.id, status: "done" } })).toBe(16);
    // The override resumed the loop; with every prompt done the autopilot then stops itself (seed 003).
    await runTick(project.id);
    expect(await loopState(project.id)).toMatchObject({ mode: "stopped", pauseReason: QUEUE_RAN_DRY });
    const audits = await getDb().auditEvent.findMany({ where: { teamId: project.teamId, action: "budget.override" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorType: "user", actorId: user.id, targetType: "project", targetId: project.id });
    // No alert fires twice in the period, override or not.
    expect(await getDb().activityEvent.count({ where: { projectId: project.id, type: "budgetAlert" } })).toBe(3);
  });

  it("a budget of 0 refuses every run and pauses the loop, saying so", async () => {
    const { project } = await budgetProject({ dailyBudgetUsd: 0, maxCostUsd: null });
    await addPrompt(project.id, { number: 1, title: "Never", body: "print hi\n" });
    await runTick(project.id);
    expect(await getDb().run.count({ where: { projectId: project.id } })).toBe(0);
    expect(await loopState(project.id)).toMatchObject({ mode: "paused", pauseReason: "budget: the project's daily budget of $0.00, which means runs are refused" });
  });

  it("with 'stop runs', a run spends no more than the budget had left when it started", async () => {
    const { project } = await budgetProject({ dailyBudgetUsd: 0.1, maxCostUsd: null, budgetStopsRuns: true });
    await addPrompt(project.id, { number: 1, title: "Spendy", body: "usage 10000 0\nusage 10000 0\nusage 10000 0\nusage 10000 0\nsleep 30000\nprint still going\n" });
    await drive(project.id, async () => (await loopState(project.id)).mode === "paused");
    const run = await getDb().run.findFirstOrThrow({ where: { projectId: project.id } });
    expect(run.status).toBe("failed");
    expect(run.reservedUsd).toBeCloseTo(0.1, 10);
    expect(run.error).toBe("stopped: cost $0.12 passed the budget left for this run of $0.10");
    expect(await ledgerTotal(project.id)).toBeCloseTo(0.12, 10);
  });
});
