// What a run records of its CLI — the session id, every token figure — the same on a worker and
// on a remote runner; and the runner API's refusal of a report of a bad shape.
import { createHash } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { getRunDetail } from "@/lib/runs/queries";
import { closeRunnerWake } from "@/lib/runners/wake";
import { GET as poll } from "@/app/api/runner/poll/route";
import { POST as heartbeat } from "@/app/api/runner/runs/[id]/heartbeat/route";
import { POST as complete } from "@/app/api/runner/runs/[id]/complete/route";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";
import { createBareProject } from "./helpers/runs";
import { params } from "./helpers/api";
import { poolRun, registeredAgent, runnerRequest, runnerToken } from "./helpers/runners";
import { runnerProject, startRegisteredRunner } from "./helpers/runner-http";

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const stop of stops.splice(0).reverse()) await stop(); });
afterAll(closeRunnerWake);

// bin/demo-agent.mjs names its session after the prompt it was given, as a uuid.
function demoSessionId(prompt: string): string {
  const hex = createHash("sha256").update(`session\0${prompt}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// One model call of 1000 uncached input tokens, 300 read from the cache and 50 written to it, 200 out.
const BODY = "usage 1000 200 300 50\nprint done\n";
const PROMPT = `# Prompt 1: Cached\n\n${BODY}`;



const ended = (projectId: string) => async () => getDb().run.findFirst({ where: { projectId, status: { notIn: ["queued", "starting", "running"] } } });
const ledger = async (runId: string) => getDb().spendEntry.aggregate({ where: { runId }, _sum: { inputTokens: true, cachedTokens: true, cacheWriteTokens: true, outputTokens: true } });

describe("a run's session and tokens", () => {
  it("a worker's run stores the CLI's session id and the cache reads and writes beside its tokens", async () => {
    const { project } = await createTeamWithProject({ cooldownMs: 0 });
    await addPrompt(project.id, { number: 1, title: "Cached", body: BODY });
    const { run } = await tickAndRun(project.id);
    expect(run).toMatchObject({ status: "succeeded", sessionId: demoSessionId(PROMPT), model: "ringmaster-demo", inputTokens: 1350, outputTokens: 200 });
    expect((await ledger(run!.id))._sum).toEqual({ inputTokens: 1050, cachedTokens: 300, cacheWriteTokens: 50, outputTokens: 200 });
    expect(await getRunDetail(run!.id)).toMatchObject({ sessionId: demoSessionId(PROMPT), cachedTokens: 300, cacheWriteTokens: 50 });
  });

  it("a runner's run stores the same: the session id and every token figure come through its report", async () => {
    const { team, project } = await runnerProject();
    const runner = await startRegisteredRunner(team.id, stops);
    await addPrompt(project.id, { number: 1, title: "Cached", body: BODY });
    await runTick(project.id);
    const run = await waitUntil("the run to end", ended(project.id), 60_000);
    // The profile names no model: the run records the CLI's own, as a worker's does.
    expect(run).toMatchObject({ remote: true, status: "succeeded", sessionId: demoSessionId(PROMPT), model: "ringmaster-demo", inputTokens: 1350, outputTokens: 200 });
    expect((await ledger(run.id))._sum).toEqual({ inputTokens: 1050, cachedTokens: 300, cacheWriteTokens: 50, outputTokens: 200 });
    expect(await getRunDetail(run.id)).toMatchObject({ sessionId: demoSessionId(PROMPT), cachedTokens: 300, cacheWriteTokens: 50 });
    await waitUntil("the runner to say so", async () => runner.output().includes(`run ${run.id}: succeeded; report applied`));
  }, 120_000);
});

describe("the runner API's report of a session and tokens", () => {
  async function heldRun() {
    const { team, project, profile } = await createBareProject();
    const token = await runnerToken(team.id);
    const agent = await registeredAgent(token);
    await poolRun(project, profile, 1);
    const trigger = (await (await poll(runnerRequest("GET", "/api/runner/poll?wait=0", token, agent), { params: Promise.resolve({}) })).json()).trigger;
    return { token, agent, runId: trigger.run.id as string };
  }
  const call = (handler: typeof heartbeat, verb: string, token: string, agent: string, runId: string, body: unknown) =>
    handler(runnerRequest("POST", `/api/runner/runs/${runId}/${verb}`, token, agent, body), params(runId));

  it.each([
    [{ sessionId: "s".repeat(201) }, "sessionId"],
    [{ sessionId: "abc\u0000def" }, "sessionId"],
    [{ sessionId: "two words" }, "sessionId"],
    [{ sessionId: "" }, "sessionId"],
    [{ sessionId: 42 }, "sessionId"],
    [{ model: "m".repeat(101) }, "model"],
    [{ model: "gpt\u0000" }, "model"],
    [{ inputTokens: 100, cacheReadTokens: 101 }, "cacheReadTokens"],
    [{ inputTokens: 100, cacheWriteTokens: 101 }, "cacheWriteTokens"],
    [{ cacheReadTokens: -1 }, "cacheReadTokens"],
  ])("refuses %j naming %s, in a heartbeat and a completion, changing nothing", async (report, field) => {
    const { token, agent, runId } = await heldRun();
    for (const [handler, verb, body] of [[heartbeat, "heartbeat", report], [complete, "complete", { status: "failed", exitCode: 1, ...report }]] as const) {
      const res = await call(handler, verb, token, agent, runId, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.field).toBe(field);
    }
    expect(await getDb().run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: "running", sessionId: null, model: null, inputTokens: null });
    expect(await getDb().spendEntry.count({ where: { runId } })).toBe(0);
  });

  it("keeps the first session id and model a runner reports: a later one does not replace them", async () => {
    const { token, agent, runId } = await heldRun();
    expect((await call(heartbeat, "heartbeat", token, agent, runId, { sessionId: "ses_first", model: "gpt-5" })).status).toBe(200);
    expect((await call(heartbeat, "heartbeat", token, agent, runId, { sessionId: "ses_second", model: "gpt-4.1" })).status).toBe(200);
    expect((await call(complete, "complete", token, agent, runId, { status: "failed", exitCode: 1, sessionId: "ses_third", model: "o3" })).status).toBe(200);
    expect(await getDb().run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ sessionId: "ses_first", model: "gpt-5" });
  });
});
