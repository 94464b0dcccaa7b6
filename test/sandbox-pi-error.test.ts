// The real pi coding agent exits 0 after a model API error; a run of it through Ringmaster (tick,
// sandbox, adapter) must still fail, with pi's own message in the prompt's failure log.
import { mkdirSync, writeFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { cachedCli, CLI_CACHE } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

const cli = await cachedCli("@mariozechner/pi-coding-agent", "0.73.1");
// The sandbox reaches the model API's double on this host's own address, by the egress allow-list.
const otherHost = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;
const double = otherHost ? await startChatDouble(otherHost, {
  call: () => ({ name: "bash", arguments: { command: "true" } }),
  answer: "Done.",
  usage: { prompt: 10, cached: 0, completion: 1, reasoning: 0 },
}) : null;
afterAll(() => double?.stop());

// A team points pi at its model API with pi's own models.json, in a folder named by
// PI_CODING_AGENT_DIR that the sandbox mounts read-only.
const agentDir = join(CLI_CACHE, "pi-agent-dir");
if ("bin" in cli && double) {
  mkdirSync(agentDir, { recursive: true });
  const provider = { baseUrl: double.url, api: "openai-completions", apiKey: "DOUBLE_API_KEY", models: [{ id: "gpt-5" }] };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { double: provider } }));
  Object.assign(process.env, { SANDBOX_READ_ONLY_PATHS: CLI_CACHE, PATH: `${cli.bin}:${process.env.PATH}`, DOUBLE_API_KEY: "sk-test", PI_CODING_AGENT_DIR: agentDir });
}

describe.skipIf("skip" in cli || !double)("a real pi run whose model API fails", () => {
  it("is failed, not succeeded, though pi exits 0; pi's message is in the run's error and the prompt's failure log", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const pi = await getDb().agentProfile.create({
      data: { teamId: team.id, name: "pi", adapter: "pi", model: "double/gpt-5", envAllowList: ["DOUBLE_API_KEY", "PI_CODING_AGENT_DIR"] },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: pi.id, networkMode: "allow-list", egressRules: [otherHost!] } });
    await addPrompt(project.id, { number: 1, title: "Write hello", body: "Write hello.txt." });
    double!.state.failWith = 400;

    const { run } = await tickAndRun(project.id);
    const log = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    expect(double!.state.requests.length, log).toBeGreaterThan(0);
    expect(run!.exitCode, log).toBe(0);
    expect(run!.status).toBe("failed");
    expect(run!.error).toBe("the agent reported a failure: 400 double says 400");
    // The error heads the failure log; the tail of the run's log follows it.
    expect(run!.prompt!.failureLog).toMatch(/^the agent reported a failure: 400 double says 400\n\n/);
    expect(log).toContain("[ringmaster] the agent reported a failure: 400 double says 400");
  }, 180_000);
});
