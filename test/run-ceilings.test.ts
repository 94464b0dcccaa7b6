import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { runTick } from "@/lib/loop/tick";
import { executeRun } from "@/lib/runs/execute";
import { tickAndRun } from "./helpers/run-once";

// Priced as Sonnet 4.5 ($3 in, $15 out per million); the suffix finds this run's agent in /proc.
async function sonnetProject(ceilings: { maxTokens?: number; maxCostUsd?: number; maxToolCalls?: number; maxTurns?: number } = {}) {
  const fixture = await createTeamWithProject({ cooldownMs: 0 });
  const model = `claude-sonnet-4-5-${Math.random().toString(36).slice(2, 10)}`;
  await getDb().agentProfile.update({ where: { id: fixture.profile.id }, data: { model, ...ceilings } });
  return { ...fixture, model };
}

function agentRunning(model: string): boolean {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).some((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(model);
    } catch {
      return false;
    }
  });
}

// What the agent would do after the line that crosses the limit: it must never get there.
const AFTERWARDS = "sleep 30000\nprint still going\n";

async function expectStopped(projectId: string, model: string, reason: string) {
  const { run } = await tickAndRun(projectId);
  expect(run!.status).toBe("failed");
  expect(run!.error).toBe(reason);
  // Failed for good on its first attempt: a person decides on a retry.
  expect(run!.prompt!.status).toBe("failed");
  expect(run!.prompt!.attempts).toBe(1);
  expect(run!.prompt!.maxAttempts).toBe(3);
  expect(await getDb().run.count({ where: { projectId } })).toBe(1);
  await waitUntil("the agent's process to be gone", async () => !agentRunning(model));
  const log = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
  expect(log).toContain(`[ringmaster] ${reason}`);
  expect(log).not.toContain("still going");
  expect((await tickAndRun(projectId)).run).toBeNull();
  return run!;
}

describe("per-run ceilings, enforced from the agent's live output", () => {
  it("stops a run whose cost passes the profile's limit, and records what it spent", async () => {
    const { project, model } = await sonnetProject({ maxCostUsd: 5 });
    await addPrompt(project.id, { number: 1, title: "Spendy", body: `usage 1000000 100000\nusage 1000000 100000\n${AFTERWARDS}` });
    const run = await expectStopped(project.id, model, "stopped: cost $9.00 passed the run limit of $5.00");
    expect(run.costUsd).toBeCloseTo(9, 10);
    expect(run.inputTokens).toBe(2_000_000);
    expect(run.outputTokens).toBe(200_000);
  });

  it("stops on tokens, the project's limit overriding the profile's", async () => {
    const { project, model } = await sonnetProject({ maxTokens: 1_000_000 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { maxTokens: 5000 } });
    await addPrompt(project.id, { number: 1, title: "Wordy", body: `usage 3000 0\nusage 2000 1000\n${AFTERWARDS}` });
    await expectStopped(project.id, model, "stopped: tokens 6,000 passed the run limit of 5,000");
  });

  it("stops on tool calls", async () => {
    const { project, model } = await sonnetProject({ maxToolCalls: 3 });
    const calls = [1, 2, 3, 4].map((i) => `tool Read {"file_path":"f${i}.txt"}`).join("\n");
    await addPrompt(project.id, { number: 1, title: "Busy", body: `${calls}\n${AFTERWARDS}` });
    await expectStopped(project.id, model, "stopped: tool calls 4 passed the run limit of 3");
  });

  it("stops on turns, each assistant message one, separately from tool calls", async () => {
    const { project, model } = await sonnetProject({ maxTurns: 3, maxToolCalls: 100 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { maxToolCalls: 100 } });
    await addPrompt(project.id, { number: 1, title: "Chatty", body: `print one\nprint two\nprint three\nprint four\n${AFTERWARDS}` });
    await expectStopped(project.id, model, "stopped: 4 turns passed the run limit of 3");
  });

  it("refuses a run when a ceiling is 0, starting no agent", async () => {
    const { project } = await sonnetProject({ maxCostUsd: 0 });
    await addPrompt(project.id, { number: 1, title: "Never", body: "print hello\n" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("failed");
    expect(run!.error).toBe("refused: the run limit for cost is 0, which means runs are refused");
    expect(run!.startedAt).toBeNull();
    expect(run!.prompt!.status).toBe("failed");
    expect(await getDb().runLog.count({ where: { runId: run!.id } })).toBe(0);
  });

  it("lets a run within its ceilings succeed", async () => {
    const { project } = await sonnetProject({ maxCostUsd: 5, maxTokens: 10_000, maxToolCalls: 3 });
    await addPrompt(project.id, { number: 1, title: "Modest", body: "usage 4000 1000\ntool Read {}\ntool Read {\"a\":1}\ntool Read {\"a\":2}\n" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    expect(run!.costUsd).toBeCloseTo(0.027, 10);
  });
});

describe("a run's wall time", () => {
  // Set in the database: the forms accept a minute at least, too slow for a test.
  it("stops a run at its profile's wall time when the project sets none", async () => {
    const { project, profile, model } = await sonnetProject();
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { maxRunDurationMs: 1000 } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { maxRunDurationMs: null } });
    await addPrompt(project.id, { number: 1, title: "Slow", body: AFTERWARDS });
    const { run } = await tickAndRun(project.id);
    expect(run).toMatchObject({ status: "timed_out", error: "exceeded the maximum duration of 1000 ms" });
    await waitUntil("the agent's process to be gone", async () => !agentRunning(model));
  });

  it("takes the project's wall time over the profile's", async () => {
    const { project, profile, model } = await sonnetProject();
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { maxRunDurationMs: 600_000 } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { maxRunDurationMs: 1000 } });
    await addPrompt(project.id, { number: 1, title: "Slow", body: AFTERWARDS });
    const { run } = await tickAndRun(project.id);
    expect(run).toMatchObject({ status: "timed_out", error: "exceeded the maximum duration of 1000 ms" });
    await waitUntil("the agent's process to be gone", async () => !agentRunning(model));
  });
});

describe("the loop detector", () => {
  it("stops eight identical tool calls in a row", async () => {
    const { project, model } = await sonnetProject();
    const calls = Array.from({ length: 8 }, () => 'tool Bash {"command":"npm test"}').join("\n");
    await addPrompt(project.id, { number: 1, title: "Stuck", body: `${calls}\n${AFTERWARDS}` });
    await expectStopped(project.id, model, 'stopped: the agent repeated the same tool call 8 times in a row (Bash {"command":"npm test"})');
  });

  it("lets eight different tool calls run", async () => {
    const { project } = await sonnetProject();
    const calls = Array.from({ length: 8 }, (_, i) => `tool Bash {"command":"npm test -- ${i}"}`).join("\n");
    await addPrompt(project.id, { number: 1, title: "Varied", body: calls });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
  });

  it("stops the same failing command with the same output five times", async () => {
    const { project, model } = await sonnetProject();
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { loopRepeatLimit: 100 } });
    const calls = Array.from({ length: 5 }, (_, i) => `tool-fail Bash {"command":"make"}\ntool Read {"file_path":"f${i}"}`).join("\n");
    await addPrompt(project.id, { number: 1, title: "Failing", body: `${calls}\n${AFTERWARDS}` });
    await expectStopped(project.id, model, 'stopped: the agent repeated a failing call 5 times with the same output (Bash {"command":"make"})');
  });
});

describe("a run's usage while it runs", () => {
  it("is on the run's row before the agent finishes", async () => {
    const { project } = await sonnetProject();
    await addPrompt(project.id, { number: 1, title: "Slow", body: "usage 1000000 0\nsleep 3000\n" });
    await runTick(project.id);
    const queued = await getDb().run.findFirstOrThrow({ where: { projectId: project.id, status: "queued" } });
    const running = executeRun(queued.id);
    const seen = await waitUntil("the spend so far on the row", async () => {
      const row = await getDb().run.findUniqueOrThrow({ where: { id: queued.id } });
      return row.costUsd !== null ? row : null;
    });
    expect(seen).toMatchObject({ status: "running", costUsd: 3, inputTokens: 1_000_000, outputTokens: 0 });
    await running;
    expect(await getDb().run.findUniqueOrThrow({ where: { id: queued.id } })).toMatchObject({ status: "succeeded", costUsd: 3 });
  });
});
