import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { NOTICES_TITLE } from "@/lib/threads/notices";
import { sweepRuns } from "@/lib/runs/reconcile";
import { closeRunnerWake } from "@/lib/runners/wake";
import { GET as poll } from "@/app/api/runner/poll/route";
import { POST as heartbeat } from "@/app/api/runner/runs/[id]/heartbeat/route";
import { POST as log } from "@/app/api/runner/runs/[id]/log/route";
import { POST as complete } from "@/app/api/runner/runs/[id]/complete/route";
import { createBareProject, queuedJobs } from "./helpers/runs";
import { params } from "./helpers/api";
import { poolRun, registeredAgent, runnerRequest, runnerToken } from "./helpers/runners";

const noParams = { params: Promise.resolve({}) };
afterAll(closeRunnerWake);

async function heldRun() {
  const fixture = await createBareProject();
  const { team, project, profile } = fixture;
  const token = await runnerToken(team.id);
  const agent = await registeredAgent(token);
  const { prompt } = await poolRun(project, profile, 1);
  const trigger = (await (await poll(runnerRequest("GET", "/api/runner/poll?wait=0", token, agent), noParams)).json()).trigger;
  return { ...fixture, token, agent, prompt, runId: trigger.run.id as string };
}

const call = (handler: typeof log, verb: string, token: string, agent: string, runId: string, body: unknown) =>
  handler(runnerRequest("POST", `/api/runner/runs/${runId}/${verb}`, token, agent, body), params(runId));

describe("a remote run", () => {
  it("streams its log by sequence number: a resent chunk is stored once, a runner that does not hold the run gets 409 and writes nothing", async () => {
    const { team, token, agent, runId } = await heldRun();
    const first = await call(log, "log", token, agent, runId, { seq: 1, lines: ["hello", "world"] });
    expect(await first.json()).toEqual({ seq: 1, stored: true });
    // The answer was lost in a network cut: the runner sends chunk 1 again, then goes on.
    expect(await (await call(log, "log", token, agent, runId, { seq: 1, lines: ["hello", "world"] })).json()).toEqual({ seq: 1, stored: false });
    await call(log, "log", token, agent, runId, { seq: 2, lines: ["done"] });
    const rows = await getDb().runLog.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => [r.seq, r.content])).toEqual([[1, "hello\nworld"], [2, "done"]]);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: runId } })).logBytes).toBe(12 + 5);

    const intruder = await registeredAgent(token);
    const refused = await call(log, "log", token, intruder, runId, { seq: 3, lines: ["mine now"] });
    expect(refused.status).toBe(409);
    expect(await getDb().runLog.count({ where: { runId } })).toBe(2);
    const stranger = await createBareProject();
    const strangerToken = await runnerToken(stranger.team.id);
    expect((await call(log, "log", strangerToken, await registeredAgent(strangerToken), runId, { seq: 3, lines: ["x"] })).status).toBe(404);
    for (const [body, field] of [[{ seq: 0, lines: ["x"] }, "seq"], [{ seq: 3, lines: [] }, "lines"], [{ seq: 3, lines: "x" }, "lines"], [{ seq: 3, lines: ["a\u0000"] }, "lines.0"]] as const) {
      const res = await call(log, "log", token, agent, runId, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.field).toBe(field);
    }
    expect(await getDb().runLog.count({ where: { runId } })).toBe(2);
    expect(team.id).toBeTruthy();
  });

  it("heartbeats renew its lease and save usage; its completion is applied once through the run lifecycle and a replay answers 200", async () => {
    const { token, agent, runId, prompt } = await heldRun();
    const before = (await getDb().run.findUniqueOrThrow({ where: { id: runId } })).leaseExpiresAt!;
    const beat = await call(heartbeat, "heartbeat", token, agent, runId, { costUsd: 0.5, inputTokens: 100, outputTokens: 20 });
    expect(beat.status).toBe(200);
    const after = await getDb().run.findUniqueOrThrow({ where: { id: runId } });
    expect(after.leaseExpiresAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(after).toMatchObject({ costUsd: 0.5, inputTokens: 100, outputTokens: 20 });

    const badSha = await call(complete, "complete", token, agent, runId, { status: "succeeded", exitCode: 0, commitSha: "nope" });
    expect(badSha.status).toBe(400);
    expect((await badSha.json()).error.field).toBe("commitSha");
    const report = { status: "succeeded", exitCode: 0, signal: null, summary: "added the flag", commitSha: "a".repeat(40), costUsd: 0.75 };
    const done = await call(complete, "complete", token, agent, runId, report);
    expect(await done.json()).toEqual({ applied: true });
    const finished = await getDb().run.findUniqueOrThrow({ where: { id: runId } });
    expect(finished).toMatchObject({ status: "succeeded", exitCode: 0, summary: "added the flag", commitSha: "a".repeat(40), costUsd: 0.75, mergeStatus: "pending", leaseExpiresAt: null });
    // Work to merge: the prompt waits in progress for its merge, which is queued.
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("in_progress");
    expect((await queuedJobs("merge")).map(([, data]) => data)).toContainEqual({ runId });
    expect((await getDb().apiToken.findUniqueOrThrow({ where: { runId } })).revokedAt).not.toBeNull();

    const replay = await call(complete, "complete", token, agent, runId, { ...report, status: "failed", commitSha: null });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ applied: false });
    expect((await getDb().run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("succeeded");
    expect((await call(heartbeat, "heartbeat", token, agent, runId, {})).status).toBe(409);
  });

  it("its spend goes to the same ledger as a worker's, once however often it is reported, and raises the budget alerts", async () => {
    const { project, token, agent, runId } = await heldRun();
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { dailyBudgetUsd: 1 } });
    const ledger = () => getDb().spendEntry.findMany({ where: { runId }, select: { key: true, costUsd: true, inputTokens: true, outputTokens: true } });
    expect((await call(heartbeat, "heartbeat", token, agent, runId, { costUsd: 0.5, inputTokens: 100, outputTokens: 20 })).status).toBe(200);
    expect(await ledger()).toEqual([{ key: "runner", costUsd: 0.5, inputTokens: 100, outputTokens: 20 }]);
    expect((await call(heartbeat, "heartbeat", token, agent, runId, { costUsd: 0.85, inputTokens: 180, outputTokens: 30 })).status).toBe(200);
    expect((await call(complete, "complete", token, agent, runId, { status: "failed", exitCode: 1, costUsd: 0.85, inputTokens: 180, outputTokens: 30 })).status).toBe(200);
    expect(await ledger()).toEqual([{ key: "runner", costUsd: 0.85, inputTokens: 180, outputTokens: 30 }]);
    const alerts = await getDb().activityEvent.findMany({ where: { projectId: project.id, type: "budgetAlert" } });
    expect(alerts.map((a) => a.message)).toEqual(["Budget alert: $0.85 spent, 80 % of the project's daily budget of $1.00"]);
    const notices = await getDb().turn.findMany({ where: { thread: { projectId: project.id, title: NOTICES_TITLE } } });
    expect(notices.map((t) => [t.actor, t.content])).toEqual([["system", alerts[0].message]]);
  });

  it("a runner that vanishes loses its run at the lease sweep; the prompt goes back to the pool, and its late report is recorded, not applied", async () => {
    const { team, token, agent, runId, prompt, project, profile } = await heldRun();
    await getDb().run.update({ where: { id: runId }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    const swept = await sweepRuns({ leaseTtlMs: 0, requeueAfterMs: 60_000, maxLostRuns: 3 });
    expect(swept.lost).toBe(1);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("lost");
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("pending");
    // The sweeper never hands a queued remote run to a spawn worker.
    await poolRun(project, profile, 2);
    await getDb().run.updateMany({ where: { projectId: project.id, status: "queued" }, data: { queuedAt: new Date(Date.now() - 120_000) } });
    await sweepRuns({ leaseTtlMs: 0, requeueAfterMs: 60_000, maxLostRuns: 3 });
    expect(await queuedJobs("spawn")).toEqual([]);

    expect((await call(heartbeat, "heartbeat", token, agent, runId, {})).status).toBe(409);
    expect((await call(log, "log", token, agent, runId, { seq: 1, lines: ["late"] })).status).toBe(409);
    const late = await call(complete, "complete", token, agent, runId, { status: "succeeded", exitCode: 0, commitSha: "b".repeat(40) });
    expect(late.status).toBe(200);
    expect(await late.json()).toEqual({ applied: false });
    expect((await getDb().run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("lost");
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "run.late_report" } });
    expect(audit.after).toEqual({ reported: "succeeded", runStatus: "lost" });
  });
});
