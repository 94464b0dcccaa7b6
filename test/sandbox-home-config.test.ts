// Cline and Factory Droid read their model provider only from a file in HOME. Run by Ringmaster
// (tick, sandbox, adapter), each gets that file in the run's private HOME from the variable its
// profile passes on, reaches its model API (a local OpenAI-compatible double on this host's
// address, on the egress allow-list), writes a file through one tool call, and the run is merged.
import { execFileSync } from "node:child_process";
import { networkInterfaces } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { cachedCli, CLI_CACHE } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

const otherHost = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

// Each CLI as a team would configure it: the file its own `auth` command (Cline) or its docs
// (droid's `customModels`) describe, as JSON in one variable. Cline ignores a provider entry
// without its `updatedAt` and falls back to its own service (api.cline.bot).
const CLIS = [
  {
    adapter: "cline", pkg: "cline", version: "3.0.65", model: "gpt-5", variable: "CLINE_PROVIDERS_CONTENT",
    content: (url: string) => ({
      version: 1, lastUsedProvider: "openai-compatible", modes: {},
      providers: { "openai-compatible": { settings: { provider: "openai-compatible", apiKey: API_KEY, model: "gpt-5", baseUrl: url }, updatedAt: "2026-11-23T00:00:00.000Z", tokenSource: "manual" } },
    }),
    call: { name: "run_commands", arguments: { commands: ["printf 'hello from cline\\n' > hello.txt"] } },
    readConfig: { name: "run_commands", arguments: { commands: ["cat ~/.cline/data/settings/providers.json"] } },
  },
  {
    adapter: "droid", pkg: "droid", version: "0.215.0", model: "custom:gpt-5", variable: "DROID_SETTINGS_CONTENT",
    content: (url: string) => ({
      customModels: [{ model: "gpt-5", displayName: "Double", baseUrl: url, apiKey: API_KEY, provider: "generic-chat-completion-api", maxOutputTokens: 4096 }],
    }),
    call: { name: "Execute", arguments: { command: "printf 'hello from droid\\n' > hello.txt", riskLevel: "low", riskLevelReason: "writes one file" } },
    readConfig: { name: "Execute", arguments: { command: "cat ~/.factory/settings.json", riskLevel: "low", riskLevelReason: "reads one file" } },
  },
] as const;

// Long enough to be masked (the log masks values of 8 characters or more).
const API_KEY = "sk-test-home-config-key";
const calls: Record<string, { name: string; arguments: Record<string, unknown> }> = Object.fromEntries(CLIS.map((c) => [c.adapter, c.call]));

const installed = await Promise.all(CLIS.map((c) => cachedCli(c.pkg, c.version)));
const doubles = await Promise.all(CLIS.map((cli) => (otherHost ? startChatDouble(otherHost, {
  call: () => calls[cli.adapter],
  answer: "Wrote hello.txt.",
  usage: { prompt: 100, cached: 0, completion: 10, reasoning: 0 },
}) : null)));
afterAll(() => Promise.all(doubles.map((d) => d?.stop())));
process.env.SANDBOX_READ_ONLY_PATHS = CLI_CACHE;

async function project(adapter: string, model: string, variable: string) {
  const { team, project, repoPath } = await createTeamWithProject({ cooldownMs: 0 });
  const profile = await getDb().agentProfile.create({ data: { teamId: team.id, name: adapter, adapter, model, envAllowList: [variable] } });
  await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id, networkMode: "allow-list", egressRules: [otherHost!] } });
  await addPrompt(project.id, { number: 1, title: "Say hello", body: "Write hello.txt." });
  return { project, repoPath };
}

const runLog = async (runId: string) => (await getDb().runLog.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");

describe.each(CLIS.map((c, i) => [c.adapter, c, installed[i], doubles[i]] as const))("the real %s CLI gets its provider file in the run's HOME", (adapter, cli, found, double) => {
  it.skipIf("skip" in found || !double)(`reaches its model API through it, writes the file, and the run is merged${"skip" in found ? ` (skipped: ${found.skip})` : ""}`, async () => {
    Object.assign(process.env, { [cli.variable]: JSON.stringify(cli.content(double!.url)), PATH: `${(found as { bin: string }).bin}:${process.env.PATH}` });
    const { project: p, repoPath } = await project(adapter, cli.model, cli.variable);

    const { run } = await tickAndRun(p.id);
    const log = await runLog(run!.id);
    expect(run!.status, log).toBe("succeeded");
    expect(run!.mergeStatus).toBe("merged");
    expect(execFileSync("git", ["-C", repoPath, "show", "main:hello.txt"], { encoding: "utf8" })).toBe(`hello from ${adapter}\n`);
    expect(log).toContain(`[ringmaster] wrote ~/${adapter === "cline" ? ".cline/data/settings/providers.json" : ".factory/settings.json"} in the run's HOME from the profile's variable`);
    // Two model turns: the tool call, then the answer after its result.
    expect(double!.state.requests.filter((r) => r.endsWith("/chat/completions"))).toHaveLength(2);
    expect(run!.egress).toMatchObject({ allowed: { [otherHost!]: expect.any(Number) }, blocked: {} });
  }, 240_000);

  it.skipIf("skip" in found || !double)("the key in the variable's JSON is masked in the run's log when the agent prints the file", async () => {
    Object.assign(process.env, { [cli.variable]: JSON.stringify(cli.content(double!.url)) });
    const { project: p } = await project(adapter, cli.model, cli.variable);
    calls[adapter] = cli.readConfig;
    const { run } = await tickAndRun(p.id).finally(() => { calls[adapter] = cli.call; });
    const log = await runLog(run!.id);
    expect(run!.status, log).toBe("succeeded");
    expect(log).toContain(`[${cli.variable} apiKey masked]`);
    expect(log).not.toContain(API_KEY);
  }, 240_000);

  it.skipIf("skip" in found || !double)("a variable that is not JSON fails the run before the CLI starts, naming the variable", async () => {
    Object.assign(process.env, { [cli.variable]: "{not json" });
    const { project: p } = await project(adapter, cli.model, cli.variable);
    const before = double!.state.requests.length;

    const { run } = await tickAndRun(p.id);
    expect(run!.status).toBe("failed");
    expect(run!.error).toBe(`${cli.variable} is not valid JSON`);
    expect(double!.state.requests.length).toBe(before);
  }, 60_000);
});
