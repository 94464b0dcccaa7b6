// A run whose CLI is not on the host it reaches fails saying which CLI and which host, on a
// worker and on a runner alike, instead of the kernel's `spawn ENOENT`.
import { hostname } from "node:os";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { closeRunnerWake } from "@/lib/runners/wake";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";
import { runnerProject, startRegisteredRunner } from "./helpers/runner-http";

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const stop of stops.splice(0).reverse()) await stop(); });
afterAll(closeRunnerWake);



const ended = (projectId: string) => async () => getDb().run.findFirst({ where: { projectId, status: { notIn: ["queued", "starting", "running"] } } });

describe("a run whose CLI is not on its host", () => {
  it("fails on a worker with the CLI and the host named, not spawn ENOENT", async () => {
    const { project, profile } = await createTeamWithProject({ cooldownMs: 0 });
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { adapter: "qwen" } });
    await addPrompt(project.id, { number: 1, title: "Nowhere", body: "hello" });
    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("failed");
    expect(run!.error).toMatch(new RegExp(`^cannot start the agent: CLI \`qwen\` not installed on ${hostname()}: the qwen adapter runs it`));
  });

  it("fails on a runner with the CLI and the runner's host named", async () => {
    const { team, project, profile } = await runnerProject();
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { adapter: "qwen" } });
    const runner = await startRegisteredRunner(team.id, stops);
    await addPrompt(project.id, { number: 1, title: "Nowhere", body: "hello" });
    await runTick(project.id);
    const run = await waitUntil("the run to end", ended(project.id), 60_000);
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(new RegExp(`^runner: cannot start the agent: CLI \`qwen\` not installed on ${hostname()}: the qwen adapter runs it`));
    await waitUntil("the runner to say so", async () => runner.output().includes(`run ${run.id}: failed (runner: cannot start the agent: CLI \`qwen\` not installed on ${hostname()}`));
  }, 120_000);
});
