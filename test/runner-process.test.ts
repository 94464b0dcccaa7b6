import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterEach, afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { runTick } from "@/lib/loop/tick";
import { closeRunnerWake } from "@/lib/runners/wake";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { startWorkerProcess, stopWorkerProcess, waitForWorkers } from "./helpers/worker-process";
import { runnerToken } from "./helpers/runners";
import { startRunnerApi, startRunnerProcess } from "./helpers/runner-http";

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const stop of stops.splice(0).reverse()) await stop(); });
afterAll(closeRunnerWake);

const fileEdit = (path: string, content: string, sleepMs = 300) => `print working on ${path}\nsleep ${sleepMs}\n\n\`\`\`file ${path}\n${content}\n\`\`\`\n`;
const stopChild = (child: ReturnType<typeof startRunnerProcess>) => () => new Promise((r) => { if (child.exitCode !== null) return r(null); child.once("exit", r); child.kill("SIGKILL"); });

describe("a real runner process", () => {
  it("works a project's prompts end to end: long-poll, worktree of its own clone, demo agent, log, push, completion, merge; and outlives a server restart", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { useRunners: true } });
    const worker = startWorkerProcess();
    stops.push(() => stopWorkerProcess(worker, "SIGKILL"));
    await waitForWorkers(worker);
    let api = await startRunnerApi();
    stops.push(() => api.stop());
    const token = await runnerToken(team.id);
    const runner = startRunnerProcess(api.url, token, ["--name", "box-1"]);
    stops.push(stopChild(runner));
    const fail = (err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}\nworker:\n${worker.output()}`); };
    await waitUntil("the runner to register", async () => runner.output().includes('registered as "box-1"')).catch(fail);

    await addPrompt(project.id, { number: 1, title: "one", body: fileEdit("one.txt", "1") });
    await enqueueTick(project.id, "test start");
    const db = getDb();
    await waitUntil("P1 merged", async () => (await db.run.findFirst({ where: { projectId: project.id, mergeStatus: "merged" } })), 60_000).catch(fail);
    const first = await db.run.findFirstOrThrow({ where: { projectId: project.id }, include: { prompt: true, logs: true } });
    expect(first).toMatchObject({ remote: true, status: "succeeded", exitCode: 0, branch: "ringmaster/1-one", prompt: { status: "done" } });
    expect(first.remoteAgentId).toBe((await db.agent.findFirstOrThrow({ where: { teamId: team.id } })).id);
    const logText = first.logs.map((l) => l.content).join("\n");
    expect(logText).toContain("working on one.txt");
    // The project's repository is a path on the server: the work went out and came back as git bundles.
    expect(logText).toMatch(/\[runner\] handed back [0-9a-f]{7} on ringmaster\/1-one as a git bundle/);
    // The agent ran confined where bubblewrap is installed, as on a worker.
    expect(logText).toContain(existsSync("/usr/bin/bwrap") ? "sandboxed (bwrap, no network)" : "unsandboxed (bwrap is not installed)");
    expect(execFileSync("git", ["show", "main:one.txt"], { cwd: repoPath }).toString()).toBe("1\n");
    expect(execFileSync("git", ["log", "--format=%s", "main"], { cwd: repoPath }).toString()).toContain("feat(prompt-1): one");
    expect(runner.output()).not.toContain(token);

    // The server goes away and comes back on the same port: the runner backs off and polls again.
    const port = api.port;
    await api.stop();
    await waitUntil("the runner to notice", async () => runner.output().includes("server unreachable")).catch(fail);
    api = await startRunnerApi(port);
    // The queue ran dry after P1, so the autopilot stopped itself (seed 003); new work starts it again.
    await waitUntil("the loop to stop itself", async () => (await db.loopState.findUniqueOrThrow({ where: { projectId: project.id } })).mode === "stopped").catch(fail);
    await addPrompt(project.id, { number: 2, title: "two", body: fileEdit("two.txt", "2") });
    await enqueueTick(project.id, "after restart");
    await waitUntil("P2 merged", async () => (await db.prompt.findFirst({ where: { projectId: project.id, number: 2, status: "done" } })), 90_000).catch(fail);
    const runs = await db.run.findMany({ where: { projectId: project.id } });
    // Each prompt ran exactly once.
    expect(runs.map((r) => r.status).sort()).toEqual(["succeeded", "succeeded"]);
    expect(execFileSync("git", ["show", "main:two.txt"], { cwd: repoPath }).toString()).toBe("2\n");
  }, 240_000);

  it("asks no bundle for a run whose base it already holds, and still hands back only that run's work", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { useRunners: true } });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const api = await startRunnerApi();
    stops.push(() => api.stop());
    const runner = startRunnerProcess(api.url, await runnerToken(team.id));
    stops.push(stopChild(runner));
    const fail = (err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}`); };
    await waitUntil("the runner to register", async () => runner.output().includes("registered as")).catch(fail);
    const db = getDb();
    // No worker: nothing is merged between the two runs, so the base stays where it was.
    for (const [number, title] of [[1, "one"], [2, "two"]] as const) {
      await addPrompt(project.id, { number, title, body: fileEdit(`${title}.txt`, String(number), 0) });
      await runTick(project.id);
      await waitUntil(`P${number} handed back`, async () => db.run.findFirst({ where: { projectId: project.id, prompt: { number }, status: "succeeded" } })).catch(fail);
    }
    expect(api.requests.filter((r) => /^GET \/api\/runner\/runs\/[^/]+\/bundle$/.test(r))).toHaveLength(1);
    expect(api.requests.filter((r) => /^POST \/api\/runner\/runs\/[^/]+\/bundle$/.test(r))).toHaveLength(2);
    const main = execFileSync("git", ["rev-parse", "main"], { cwd: repoPath }).toString().trim();
    for (const [branch, file] of [["ringmaster/1-one", "one.txt"], ["ringmaster/2-two", "two.txt"]]) {
      expect(execFileSync("git", ["rev-parse", `${branch}~1`], { cwd: repoPath }).toString().trim()).toBe(main);
      expect(execFileSync("git", ["diff", "--name-only", main, branch], { cwd: repoPath }).toString().trim()).toBe(file);
    }
  }, 120_000);

  it("prepares the worktrees of two runs of one project one at a time: the second waits for the first's base and needs no bundle", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ maxParallel: 2, cooldownMs: 0 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { useRunners: true } });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    // The first base bundle is held until the runner has the second run in hand, and a while longer:
    // side by side, the second run's preparation would ask for its own bundle meanwhile (both then
    // fetched into the runner's one copy of the project and raced on refs/remotes/origin/main).
    let secondInHand = () => {};
    const inHand = new Promise<void>((r) => { secondInHand = r; });
    let held = 0;
    let overlapped: string | null = null;
    const bundleGet = /^GET \/api\/runner\/runs\/[^/]+\/bundle$/;
    const api = await startRunnerApi(0, {
      before: async (request) => {
        if (!bundleGet.test(request)) return;
        if (held > 0) { overlapped = request; return; }
        held++;
        await inHand;
        await new Promise((r) => setTimeout(r, 1500));
        held--;
      },
    });
    stops.push(() => api.stop());
    const runner = startRunnerProcess(api.url, await runnerToken(team.id), ["--max-concurrent", "2"]);
    stops.push(stopChild(runner));
    const fail = (err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}`); };
    await waitUntil("the runner to register", async () => runner.output().includes("registered as")).catch(fail);
    const db = getDb();
    await addPrompt(project.id, { number: 1, title: "one", body: fileEdit("one.txt", "1", 0) });
    await addPrompt(project.id, { number: 2, title: "two", body: fileEdit("two.txt", "2", 0) });
    // No worker: the tick runs here, one spawn each.
    await runTick(project.id);
    await waitUntil("the first run in the runner's hands", async () => runner.output().includes("ringmaster/1-one")).catch(fail);
    await runTick(project.id);
    await waitUntil("the second run in the runner's hands", async () => runner.output().includes("ringmaster/2-two")).catch(fail);
    secondInHand();
    await waitUntil("both handed back", async () => (await db.run.count({ where: { projectId: project.id, status: "succeeded" } })) === 2, 60_000).catch(fail);
    expect(overlapped).toBeNull();
    expect(api.requests.filter((r) => bundleGet.test(r))).toHaveLength(1);
    const main = execFileSync("git", ["rev-parse", "main"], { cwd: repoPath }).toString().trim();
    for (const [branch, file] of [["ringmaster/1-one", "one.txt"], ["ringmaster/2-two", "two.txt"]]) {
      expect(execFileSync("git", ["rev-parse", `${branch}~1`], { cwd: repoPath }).toString().trim()).toBe(main);
      expect(execFileSync("git", ["diff", "--name-only", main, branch], { cwd: repoPath }).toString().trim()).toBe(file);
    }
  }, 120_000);

  it("on Ctrl-C stops its agent, reports the run cancelled at once (not left to its lease), goes offline and exits 130", async () => {
    const { team, project } = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { useRunners: true } });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const api = await startRunnerApi();
    stops.push(() => api.stop());
    const runner = startRunnerProcess(api.url, await runnerToken(team.id));
    stops.push(stopChild(runner));
    const fail = (err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}`); };
    await waitUntil("the runner to register", async () => runner.output().includes("registered as")).catch(fail);
    await addPrompt(project.id, { number: 1, title: "long", body: "print started\nsleep 60000\nexit 0\n" });
    // No worker process here: the tick runs in this test, and the runner does the rest.
    await runTick(project.id);
    const db = getDb();
    await waitUntil("the agent to start", async () => (await db.runLog.findFirst({ where: { run: { projectId: project.id }, content: { contains: "started" } } }))).catch(fail);
    runner.kill("SIGINT");
    const code = await new Promise((r) => runner.once("exit", r));
    expect(code).toBe(130);
    const run = await db.run.findFirstOrThrow({ where: { projectId: project.id } });
    expect(run).toMatchObject({ status: "cancelled", error: "runner shut down" });
    expect((await db.agent.findFirstOrThrow({ where: { teamId: team.id } })).status).toBe("offline");
    expect((await db.prompt.findFirstOrThrow({ where: { projectId: project.id } })).status).toBe("pending");
  }, 120_000);
});
