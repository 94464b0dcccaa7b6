// executeRun's own decisions around the agent: a worker's shutdown hands the prompt back without
// spending an attempt, a run it cannot start fails with why, a failed run's log leads with its
// reason, and what a succeeded run commits (and under which title).
import { execFileSync } from "node:child_process";
import { getEventListeners } from "node:events";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { captureLogs } from "@/lib/log-capture";
import { runTick } from "@/lib/loop/tick";
import { cancelRun } from "@/lib/runs/cancel";
import { executeRun } from "@/lib/runs/execute";
import { appendTurn } from "@/lib/threads/append";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { hostProcessesRunning } from "./helpers/host-processes";

async function shellProject(commandTemplate: string) {
  const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
  const profile = await getDb().agentProfile.create({ data: { teamId: team.id, name: `shell-${Math.random()}`, adapter: "shell", commandTemplate } });
  await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
  return { team, project, profile };
}

/** The tick queues the project's first prompt; the queued run. */
async function queued(projectId: string, title = "Work") {
  const prompt = await addPrompt(projectId, { number: 1, title, body: "" });
  await runTick(projectId);
  return { prompt, run: await getDb().run.findFirstOrThrow({ where: { promptId: prompt.id, status: "queued" } }) };
}

const runOf = (id: string) => getDb().run.findUniqueOrThrow({ where: { id }, include: { prompt: true } });
const runLog = async (runId: string) => (await getDb().runLog.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");

/** A run whose agent sleeps (far longer than any test waits), being executed, once its agent started. */
async function sleepingRun(opts: { signal?: AbortSignal } = {}) {
  const nap = `${400 + Math.floor(Math.random() * 1000)}.5`;
  const { project } = await shellProject(`sleep ${nap} & wait`);
  const { run } = await queued(project.id);
  const executing = executeRun(run.id, opts);
  await waitUntil("the agent to start", async () => hostProcessesRunning(["sleep", nap]));
  return { project, run, executing, nap };
}

/** A sleeping run, its worker's signal aborted with `reason` once the agent started; the run after. */
async function abortedMidRun(reason: string) {
  const signal = new AbortController();
  const { run, executing, nap } = await sleepingRun({ signal: signal.signal });
  signal.abort(reason);
  await executing;
  return { after: await runOf(run.id), nap };
}

/** Runs `work` with the process's temporary folder a new, empty one; what it left there. */
async function leftInTmp(work: () => Promise<void>) {
  const [before, tmp] = [process.env.TMPDIR, mkdtempSync(join(tmpdir(), "run-execute-"))];
  process.env.TMPDIR = tmp;
  try {
    await work();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
  const left = readdirSync(tmp);
  rmSync(tmp, { recursive: true, force: true });
  return left;
}

describe("executing a run", () => {
  it("when the worker shuts down mid-run: the agent is stopped, the run cancelled, the prompt queued again without spending an attempt", async () => {
    const { after, nap } = await abortedMidRun("shutdown");
    expect(after).toMatchObject({ status: "cancelled", error: "worker shut down; the prompt goes back to the queue" });
    expect(after.prompt).toMatchObject({ status: "pending", attempts: 0 });
    expect(hostProcessesRunning(["sleep", nap])).toBe(false);
  });

  it("when aborted for another reason: the run's own outcome stands and the attempt counts", async () => {
    const { after } = await abortedMidRun("lease lost");
    expect(after.status).toBe("cancelled");
    expect(after.error).not.toBe("worker shut down; the prompt goes back to the queue");
    expect(after.prompt!.attempts).toBe(1);
    // A cancel is no failure: the prompt's failure log is not the stopped agent's output.
    expect(after.prompt!.failureLog).toBeNull();
  });

  it("a run cancelled by a person: its agent is stopped at the next lease renewal, and the cancel stands", async () => {
    const { project, run, executing, nap } = await sleepingRun();
    await cancelRun(project, run.id);
    await executing;
    expect(hostProcessesRunning(["sleep", nap])).toBe(false);
    expect(await runOf(run.id)).toMatchObject({ status: "cancelled", error: "cancelled by a person", prompt: { status: "cancelled" } });
  });

  it("leaves no listener on the worker's signal once the run has ended", async () => {
    const { project } = await shellProject("true");
    const { run } = await queued(project.id);
    const signal = new AbortController().signal;
    await executeRun(run.id, { signal });
    expect((await runOf(run.id)).status).toBe("succeeded");
    expect(getEventListeners(signal, "abort")).toEqual([]);
  });

  it("a run whose agent profile is gone fails with that reason first in its failure log, and the worker logs it", async () => {
    const { project } = await shellProject("true");
    const { run } = await queued(project.id);
    await getDb().run.update({ where: { id: run.id }, data: { agentProfileId: null } });
    const logs = captureLogs();
    await executeRun(run.id);
    const after = await runOf(run.id);
    expect(after).toMatchObject({ status: "failed", error: "the run has no agent profile" });
    expect(after.prompt!.failureLog).toBe("the run has no agent profile");
    expect(logs.filter((l) => l.runId === run.id && l.level === 40)).toEqual([
      expect.objectContaining({ name: "runs", err: "the run has no agent profile", msg: "run failed before or around its agent" }),
    ]);
  });

  it("a run whose worktree cannot be made fails saying why, and the sandbox made beside it is taken down", async () => {
    const { project } = await shellProject("true");
    const { run } = await queued(project.id);
    await getDb().project.update({ where: { id: project.id }, data: { activeBranch: "no-such-base" } });
    const left = await leftInTmp(() => executeRun(run.id));
    const after = await runOf(run.id);
    expect(after.status).toBe("failed");
    expect(after.error).toContain("no-such-base");
    expect(after.prompt!.failureLog).toBe(after.error);
    expect(left).toEqual([]);
  });

  it("a run of a project with no repository path fails saying so", async () => {
    const { project } = await shellProject("true");
    const { run } = await queued(project.id);
    await getDb().project.update({ where: { id: project.id }, data: { repoPath: null } });
    await executeRun(run.id);
    expect(await runOf(run.id)).toMatchObject({ status: "failed", error: "the project has no repository path", prompt: { failureLog: "the project has no repository path" } });
  });

  it("a lead run is given its thread up to its own turn, and nothing of its worktree is committed", async () => {
    const { project, profile } = await shellProject("cat; echo lead-wrote > lead.txt");
    const thread = await getDb().thread.create({ data: { projectId: project.id, title: "Plans" } });
    const say = (text: string) => appendTurn(thread.id, { actor: "person", actorId: "user:u", action: "message", text });
    await say("what is next?");
    const run = await getDb().run.create({
      data: { projectId: project.id, kind: "lead", threadId: thread.id, threadSeq: 1, agentProfileId: profile.id, adapter: profile.adapter, queuedAt: new Date() },
    });
    await say("asked while the lead starts");
    await executeRun(run.id);
    const after = await runOf(run.id);
    expect(after).toMatchObject({ status: "succeeded", commitSha: null });
    const log = (await getDb().runLog.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    expect(log).toContain(`You are the lead agent of the project "${project.name}", in the conversation about "Plans".`);
    expect(log).toContain("what is next?");
    expect(log).not.toContain("asked while the lead starts");
    expect(log).not.toContain("MCP server");
    expect(execFileSync("git", ["log", "--all", "--format=%s"], { cwd: project.repoPath! }).toString()).not.toContain("chore(lead)");
  });

  it("a failed agent's failure log is its reason, a blank line, then its last lines", async () => {
    const { project } = await shellProject("echo first; echo second; exit 3");
    const { run } = await queued(project.id);
    await executeRun(run.id);
    const after = await runOf(run.id);
    expect(after.status).toBe("failed");
    expect(after.prompt!.failureLog).toMatch(new RegExp(`^${after.error!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n\n(.*\n)*first\nsecond`));
  });

  it("a failed verify's output that already starts with the reason is the failure log as it is", async () => {
    const { project } = await shellProject("true");
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { verifyCommand: "echo 'verify command failed: 2 of 9 tests'; echo 'FAIL a.test'; exit 1" } });
    const { run } = await queued(project.id);
    await executeRun(run.id);
    const after = await runOf(run.id);
    expect(after).toMatchObject({ status: "failed", error: "verify command failed" });
    expect(after.prompt!.failureLog).toMatch(/^verify command failed: 2 of 9 tests\nFAIL a\.test\n?$/);
  });

  it("a failed agent's changes are not committed: its branch stays at the base for the next attempt", async () => {
    const { project } = await shellProject("echo half > half.txt; exit 3");
    const { run } = await queued(project.id);
    await executeRun(run.id);
    const after = await runOf(run.id);
    expect(after).toMatchObject({ status: "failed", commitSha: null });
    expect(after.prompt!.branch).toBeTruthy();
    const ahead = execFileSync("git", ["rev-list", "--count", `${project.baseBranch}..${after.prompt!.branch}`], { cwd: project.repoPath! }).toString().trim();
    expect(ahead).toBe("0");
  });

  it("a failed agent's failure log keeps its last 50 lines, not its first", async () => {
    const { project } = await shellProject("i=1; while [ $i -le 80 ]; do echo line-$i; i=$((i+1)); done; exit 3");
    const { run } = await queued(project.id);
    await executeRun(run.id);
    const { prompt } = await runOf(run.id);
    expect(prompt!.failureLog).toContain("line-40\n");
    expect(prompt!.failureLog).toContain("line-80");
    expect(prompt!.failureLog).not.toContain("line-20\n");
  });

  it("gives the agent the prompt's text, the run's model and the profile's extra arguments", async () => {
    const { project, profile } = await shellProject("cat; echo; echo model={model} args");
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { extraArgs: ["--flag", "two words"] } });
    const prompt = await addPrompt(project.id, { number: 4, title: "Do it", body: "the body" });
    await runTick(project.id);
    const queuedRun = await getDb().run.findFirstOrThrow({ where: { promptId: prompt.id, status: "queued" } });
    const run = await getDb().run.update({ where: { id: queuedRun.id }, data: { model: "m-1" } });
    await executeRun(run.id);
    expect((await runOf(run.id)).status).toBe("succeeded");
    const log = (await getDb().runLog.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    expect(log).toContain("# Prompt 4: Do it\n\nthe body\nmodel=m-1 args --flag two words");
  });

  it("gives the agent a token that outlives the run's wall time by ten minutes", async () => {
    const { project } = await shellProject("true");
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { maxRunDurationMs: 120_000 } });
    const { run } = await queued(project.id);
    await executeRun(run.id);
    const token = await getDb().apiToken.findUniqueOrThrow({ where: { runId: run.id } });
    expect(token.expiresAt!.getTime() - token.createdAt.getTime()).toBe(120_000 + 10 * 60_000);
  });

  it("a succeeded run commits its changes as the prompt's feature, on its branch", async () => {
    const { project } = await shellProject("echo done > work.txt");
    const { run } = await queued(project.id, "Write the work");
    await executeRun(run.id);
    const after = await runOf(run.id);
    expect(after.status).toBe("succeeded");
    expect(after.commitSha).toMatch(/^[0-9a-f]{40}$/);
    const subject = execFileSync("git", ["log", "-1", "--format=%s", after.commitSha!], { cwd: project.repoPath! }).toString().trim();
    expect(subject).toBe("feat(prompt-1): Write the work");
    expect(execFileSync("git", ["show", `${after.commitSha}:work.txt`], { cwd: project.repoPath! }).toString()).toBe("done\n");
    // Its profile passes no home-config variable: nothing is written into the run's HOME.
    expect(await runLog(run.id)).not.toContain("[ringmaster] wrote");
  });

  it("a succeeded run that changed nothing has no commit", async () => {
    const { project } = await shellProject("true");
    const { run } = await queued(project.id);
    await executeRun(run.id);
    expect(await runOf(run.id)).toMatchObject({ status: "succeeded", commitSha: null });
  });

  it("a succeeded run whose agent committed itself keeps that commit", async () => {
    const { project } = await shellProject("echo mine > own.txt && git add own.txt && git -c user.name=a -c user.email=a@b commit -qm 'agent made this'");
    const { run } = await queued(project.id);
    await executeRun(run.id);
    const after = await runOf(run.id);
    expect(after.status).toBe("succeeded");
    expect(execFileSync("git", ["log", "-1", "--format=%s", after.commitSha!], { cwd: project.repoPath! }).toString().trim()).toBe("agent made this");
  });
});
