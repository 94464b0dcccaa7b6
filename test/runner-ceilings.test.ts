import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { closeRunnerWake } from "@/lib/runners/wake";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { runnerToken } from "./helpers/runners";
import { startRunnerApi, startRunnerProcess } from "./helpers/runner-http";

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const stop of stops.splice(0).reverse()) await stop(); });
afterAll(closeRunnerWake);

describe("per-run ceilings on a remote runner", () => {
  it("stop a demo agent whose cost passes the limit, with the reason, and the prompt is not retried", async () => {
    const { team, project, profile } = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
    const db = getDb();
    // Priced as Sonnet 4.5 ($3 in, $15 out per million tokens).
    await db.agentProfile.update({ where: { id: profile.id }, data: { model: "claude-sonnet-4-5", maxCostUsd: 5 } });
    await db.projectSettings.update({ where: { projectId: project.id }, data: { useRunners: true } });
    await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const api = await startRunnerApi();
    stops.push(() => api.stop());
    const runner = startRunnerProcess(api.url, await runnerToken(team.id));
    stops.push(() => new Promise((r) => { if (runner.exitCode !== null) return r(null); runner.once("exit", r); runner.kill("SIGKILL"); }));
    const fail = (err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}`); };
    await waitUntil("the runner to register", async () => runner.output().includes("registered as")).catch(fail);

    // What the agent would do after the line that crosses the limit: it must never get there.
    await addPrompt(project.id, { number: 1, title: "Spendy", body: "usage 1000000 100000\nusage 1000000 100000\nsleep 30000\nprint still going\n" });
    await runTick(project.id);
    const finished = async () => db.run.findFirst({ where: { projectId: project.id, status: { notIn: ["queued", "starting", "running"] } }, include: { prompt: true } });
    const run = await waitUntil("the run to end", finished, 60_000).catch(fail);
    const reason = "stopped: cost $9.00 passed the run limit of $5.00";
    expect(run).toMatchObject({ remote: true, status: "failed", error: reason, inputTokens: 2_000_000, outputTokens: 200_000 });
    expect(run!.costUsd).toBeCloseTo(9, 10);
    // Failed for good on its first attempt: a person decides on a retry.
    expect(run!.prompt).toMatchObject({ status: "failed", attempts: 1, maxAttempts: 3 });
    const log = (await db.runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    expect(log).toContain(`[ringmaster] ${reason}`);
    expect(log).not.toContain("still going");
    await runTick(project.id);
    expect(await db.run.count({ where: { projectId: project.id } })).toBe(1);
    expect(runner.output()).toContain(`run ${run!.id}: failed (${reason}); report applied`);
  }, 120_000);
});
