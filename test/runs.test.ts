import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { hostProcessesRunning } from "./helpers/host-processes";
import { tickAndRun } from "./helpers/run-once";

async function useShellProfile(teamId: string, projectId: string, commandTemplate: string, extra: Record<string, unknown> = {}) {
  const profile = await getDb().agentProfile.create({ data: { teamId, name: `shell-${Math.random()}`, adapter: "shell", commandTemplate, ...extra } });
  await getDb().projectSettings.update({ where: { projectId }, data: { executorProfileId: profile.id, spawnCooldownMs: 0 } });
  return profile;
}

describe("an agent run", () => {
  it("sees a scrubbed environment with its run context, in its own worktree on its own branch", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    // The sandbox hides every folder but the worktree, so the agent reports through its log.
    await useShellProfile(team.id, project.id, "env; git rev-parse --abbrev-ref HEAD; pwd");
    const prompt = await addPrompt(project.id, { number: 7, title: "Show env", body: "" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    const seen = (await getDb().runLog.findMany({ where: { runId: run!.id } })).map((l) => l.content).join("\n");
    expect(seen).toContain(`RINGMASTER_RUN_ID=${run!.id}`);
    expect(seen).toContain(`RINGMASTER_PROMPT_ID=${prompt.id}`);
    expect(seen).toContain(`RINGMASTER_PROJECT_ID=${project.id}`);
    // The agent has its run token; the stored log shows it masked.
    expect(seen).toContain("RINGMASTER_TOKEN=[RINGMASTER_TOKEN masked]");
    expect(seen).not.toContain("rm_run_");
    expect(seen).toMatch(/RINGMASTER_URL=http/);
    expect(seen).not.toContain("DATABASE_URL");
    expect(seen).not.toContain("REDIS_URL");
    expect(seen).toContain("ringmaster/7-show-env");
    expect(seen).toContain(run!.worktreePath!);
    // The run's token dies with the run.
    const token = await getDb().apiToken.findUniqueOrThrow({ where: { runId: run!.id } });
    expect(token.revokedAt).not.toBeNull();
    // Nothing to commit: the prompt is done without a merge.
    expect(run!.prompt!.status).toBe("done");
  });

  it("retries a failed prompt with the fallback model, then succeeds (seeds 002, 003)", async () => {
    const { project, profile } = await createTeamWithProject({ cooldownMs: 0 });
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { model: "main-model", fallbackModel: "fallback-model" } });
    await addPrompt(project.id, { number: 1, title: "Flaky", body: `fail-once .failed-once\n\n\`\`\`file ok.txt\nok\n\`\`\`\n` });
    const first = await tickAndRun(project.id);
    expect(first.run!.status).toBe("failed");
    expect(first.run!.model).toBe("main-model");
    expect(first.run!.prompt!.status).toBe("pending");
    expect(first.run!.prompt!.attempts).toBe(1);
    const second = await tickAndRun(project.id);
    expect(second.run!.status).toBe("succeeded");
    expect(second.run!.attempt).toBe(2);
    expect(second.run!.model).toBe("fallback-model");
    expect(second.run!.branch).toBe(first.run!.branch);
    expect(second.run!.mergeStatus).toBe("merged");
    expect(second.run!.prompt!.status).toBe("done");
    const log = await getDb().runLog.findMany({ where: { runId: second.run!.id } });
    expect(log.map((l) => l.content).join("\n")).toContain('"type":"result"');
  });

  it("fails for good after max attempts, keeping the failure log for the planner (circuit breaker)", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    await useShellProfile(team.id, project.id, "echo trying; echo 'boom: disk on fire' >&2; exit 3");
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { maxAttempts: 2 } });
    const prompt = await getDb().prompt.create({ data: { projectId: project.id, planningKey: "main", number: 1, title: "Doomed", body: "", maxAttempts: 2 } });
    await tickAndRun(project.id);
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("failed");
    expect(run!.exitCode).toBe(3);
    const final = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect(final.status).toBe("failed");
    expect(final.attempts).toBe(2);
    expect(final.failureLog).toContain("boom: disk on fire");
    // A failed prompt is not picked again.
    expect((await tickAndRun(project.id)).run).toBeNull();
  });

  it("requires the completion signal and the verify command to pass (seed 003)", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    await useShellProfile(team.id, project.id, "echo work > work.txt; echo all good", { completionSignal: "TASK COMPLETE" });
    await addPrompt(project.id, { number: 1, title: "No signal", body: "" });
    const noSignal = await tickAndRun(project.id);
    expect(noSignal.run!.status).toBe("failed");
    expect(noSignal.run!.error).toMatch(/completion signal "TASK COMPLETE" not printed/);

    const { team: t2, project: p2 } = await createTeamWithProject({ cooldownMs: 0 });
    await useShellProfile(t2.id, p2.id, "echo work > work.txt; echo TASK COMPLETE", { completionSignal: "TASK COMPLETE" });
    await getDb().projectSettings.update({ where: { projectId: p2.id }, data: { verifyCommand: "test -f missing.txt" } });
    await addPrompt(p2.id, { number: 1, title: "Verify fails", body: "" });
    const verifyFails = await tickAndRun(p2.id);
    expect(verifyFails.run!.status).toBe("failed");
    expect(verifyFails.run!.error).toBe("verify command failed");

    await getDb().projectSettings.update({ where: { projectId: p2.id }, data: { verifyCommand: "test -f work.txt" } });
    const passes = await tickAndRun(p2.id);
    expect(passes.run!.status).toBe("succeeded");
    expect(passes.run!.mergeStatus).toBe("merged");
  });

  it("times out a run past its maximum duration and kills its process group", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    // The agent's pids live in its own namespace; its sleep is found on the host by its argument.
    const nap = `${30 + Math.floor(Math.random() * 1000)}.5`;
    await useShellProfile(team.id, project.id, `sleep ${nap} & wait`);
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { maxRunDurationMs: 1000 } });
    await addPrompt(project.id, { number: 1, title: "Forever", body: "" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("timed_out");
    await waitUntil("the agent's background process to be gone", async () => !hostProcessesRunning(["sleep", nap]));
    expect(run!.prompt!.status).toBe("pending");
  });

  it("caps the stored log with a marker where the output was cut", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    await useShellProfile(team.id, project.id, "i=0; while [ $i -lt 120000 ]; do echo line-$i-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; i=$((i+1)); done");
    await addPrompt(project.id, { number: 1, title: "Chatty", body: "" });
    const { run } = await tickAndRun(project.id);
    expect(run!.logTruncated).toBe(true);
    expect(run!.logBytes).toBeLessThanOrEqual(5 * 1024 * 1024);
    const logs = await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } });
    expect(logs.at(-1)!.content).toMatch(/output cut here: the log reached its \d+ byte cap/);
    expect(logs.map((l) => l.seq)).toEqual(logs.map((_, i) => i + 1));
  });
});
