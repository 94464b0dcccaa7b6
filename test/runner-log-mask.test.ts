// A runner's run log is masked as a worker's is: the runner masks what it gave its agent before a
// line leaves its machine, and the server masks what it knows (the team's keys, any Ringmaster
// token) when a chunk comes in.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { issueSecret } from "@/lib/auth/tokens";
import { closeRunnerWake } from "@/lib/runners/wake";
import { POST as setCredential } from "@/app/api/team/credentials/route";
import { GET as poll } from "@/app/api/runner/poll/route";
import { POST as log } from "@/app/api/runner/runs/[id]/log/route";
import { addPrompt, createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { poolRun, registeredAgent, runnerRequest, runnerToken } from "./helpers/runners";
import { startRunnerApi, startRunnerProcess } from "./helpers/runner-http";

process.env.ENCRYPTION_KEY ??= "5e".repeat(32);
const noParams = { params: Promise.resolve({}) };
const KEY = "sk-ant-api03-runner-secret-WXYZ";
const PROVIDERS = JSON.stringify({ customModels: [{ model: "m1", apiKey: "droid-provider-secret-1234" }] });

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => { for (const stop of stops.splice(0).reverse()) await stop(); });
afterAll(closeRunnerWake);

const logLines = async (runId: string) => (await getDb().runLog.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n").split("\n");

describe("a remote run's log", () => {
  it("masks what the runner gave its agent — a key it passes, the run token, the keys inside a provider file — as a worker's log does", async () => {
    const { team, project, profile } = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
    await getDb().agentProfile.update({
      where: { id: profile.id },
      data: { adapter: "shell", commandTemplate: `echo "key: $ANTHROPIC_API_KEY, token: $RINGMASTER_TOKEN"; echo "$DROID_SETTINGS_CONTENT"; echo "$ANTHROPIC_API_KEY" >&2` },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { useRunners: true } });
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "running" } });
    const api = await startRunnerApi();
    stops.push(() => api.stop());
    const runner = startRunnerProcess(api.url, await runnerToken(team.id), ["--pass-env", "ANTHROPIC_API_KEY,DROID_SETTINGS_CONTENT"], { ANTHROPIC_API_KEY: KEY, DROID_SETTINGS_CONTENT: PROVIDERS });
    stops.push(() => new Promise((r) => { if (runner.exitCode !== null) return r(null); runner.once("exit", r); runner.kill("SIGKILL"); }));
    await waitUntil("the runner to register", async () => runner.output().includes("registered as"));

    await addPrompt(project.id, { number: 1, title: "Leak", body: "" });
    await runTick(project.id);
    const run = await waitUntil("the run to end", async () => getDb().run.findFirst({ where: { projectId: project.id, status: { notIn: ["queued", "starting", "running"] } } }), 60_000)
      .catch((err: Error) => { throw new Error(`${err.message}\nrunner:\n${runner.output()}`); });
    const lines = await logLines(run.id);
    expect(lines).toContain("key: [ANTHROPIC_API_KEY masked], token: [RINGMASTER_TOKEN masked]");
    expect(lines).toContain(`{"customModels":[{"model":"m1","apiKey":"[DROID_SETTINGS_CONTENT apiKey masked]"}]}`);
    expect(lines).toContain("[stderr] [ANTHROPIC_API_KEY masked]");
    expect(JSON.stringify(lines)).not.toMatch(/runner-secret|droid-provider-secret|rm_run_/);
  }, 120_000);

  it("is masked by the server too: the team's keys the profile allow-lists, the keys inside a provider file among them, any Ringmaster token", async () => {
    const { team, project, profile } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    for (const [name, value] of [["ANTHROPIC_API_KEY", KEY], ["CLINE_PROVIDERS_CONTENT", PROVIDERS], ["OPENAI_API_KEY", "sk-not-allow-listed-5678"]]) {
      expect((await setCredential(request("POST", "/api/team/credentials", admin, { name, value }), noParams)).status).toBe(201);
    }
    await getDb().agentProfile.update({ where: { id: profile.id }, data: { envAllowList: ["ANTHROPIC_API_KEY", "CLINE_PROVIDERS_CONTENT"] } });
    const token = await runnerToken(team.id);
    const agent = await registeredAgent(token);
    await poolRun(project, profile, 1);
    const runId = (await (await poll(runnerRequest("GET", "/api/runner/poll?wait=0", token, agent), noParams)).json()).trigger.run.id as string;
    const runToken = issueSecret("run").token;
    const sent = [`key=${KEY}`, `token ${runToken}.`, `runner ${token}`, PROVIDERS, "apiKey: droid-provider-secret-1234", "sk-not-allow-listed-5678"];
    const res = await log(runnerRequest("POST", `/api/runner/runs/${runId}/log`, token, agent, { seq: 1, lines: sent }), params(runId));
    expect(res.status).toBe(200);
    expect(await logLines(runId)).toEqual([
      "key=[ANTHROPIC_API_KEY masked]",
      "token [RINGMASTER_TOKEN masked].",
      "runner [Ringmaster token masked]",
      // The credential whole, as a worker's log masks it, and the key inside it wherever it shows.
      "[CLINE_PROVIDERS_CONTENT masked]",
      "apiKey: [CLINE_PROVIDERS_CONTENT apiKey masked]",
      // A key the profile does not give its runs is no secret of this run.
      "sk-not-allow-listed-5678",
    ]);
  });
});
