// A completion report or an egress write retried after Postgres dropped the connection may
// already have committed: replaying it must not count anything twice.
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { completeRun } from "@/lib/runs/complete";
import { recordEgress } from "@/lib/runs/sandbox";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";

async function liveRun() {
  const { project } = await createTeamWithProject({ loopEnabled: false });
  const prompt = await addPrompt(project.id, { number: 1, title: "p", body: "" });
  await getDb().prompt.update({ where: { id: prompt.id }, data: { status: "in_progress" } });
  const run = await getDb().run.create({ data: { projectId: project.id, promptId: prompt.id, kind: "executor", adapter: "demo", status: "running" } });
  return { project, prompt, run };
}

describe("replayed run reports", () => {
  it("egress counts of one sandbox are added once however often the write is retried; another sandbox's add up", async () => {
    const { run } = await liveRun();
    const agent = { allowed: { "registry.npmjs.org": 3 }, blocked: { "evil.example": 1 } };
    await recordEgress(run.id, agent, "agent");
    await recordEgress(run.id, agent, "agent");
    await recordEgress(run.id, { allowed: { "registry.npmjs.org": 2 }, blocked: {} }, "verify-1");
    const { egress } = await getDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(egress).toMatchObject({ allowed: { "registry.npmjs.org": 5 }, blocked: { "evil.example": 1 } });
  });

  it("a completion replayed after it committed changes nothing: tokens, cost, attempts, audit and wake-ups counted once", async () => {
    const { project, prompt, run } = await liveRun();
    const outcome = { status: "failed" as const, exitCode: 1, signal: null, inputTokens: 1200, outputTokens: 300, costUsd: 0.42, failureLog: "boom" };
    expect(await completeRun(run.id, outcome)).toBe(true);
    expect(await completeRun(run.id, outcome)).toBe(false);
    expect(await completeRun(run.id, { ...outcome, inputTokens: 9999, costUsd: 9 })).toBe(false);
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "failed", inputTokens: 1200, outputTokens: 300, costUsd: 0.42 });
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).attempts).toBe(1);
    expect(await getDb().auditEvent.count({ where: { action: "run.failed", targetId: run.id } })).toBe(1);
    expect(await getDb().activityEvent.count({ where: { projectId: project.id, type: "taskFailed" } })).toBe(1);
  });
});
