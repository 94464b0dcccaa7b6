// Qwen Code, opencode, GitHub Copilot CLI, Kilo Code, Cline and Factory Droid, run by Ringmaster (tick, sandbox, adapter, per-run
// MCP wiring), call Ringmaster's report_progress through the run's MCP gateway when their model
// (a local OpenAI-compatible double) asks for it. pi has no MCP client, so it is not here.
import { networkInterfaces } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { cachedCli, CLI_CACHE } from "./helpers/agent-cli-cache";
import { startChatDouble } from "./helpers/chat-double";
import { opencodeFamilyConfig } from "./helpers/conformance";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

const otherHost = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

const TOOLS = ["complete_task", "create_prompt", "get_task", "post_message", "read_messages", "report_progress", "verify", "wait_for_user"];

// Each CLI as a team would configure it: its OpenAI-compatible provider through the variables the
// profile passes on; and how it names an MCP server's tools to its model.
const CLIS = [
  {
    adapter: "qwen", pkg: "@qwen-code/qwen-code", version: "0.24.4", model: "gpt-5", extraArgs: ["--auth-type", "openai"],
    env: (url: string) => ({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: url, QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" }),
    toolName: (tool: string) => `mcp__ringmaster__${tool}`,
  },
  {
    adapter: "opencode", pkg: "opencode-ai", version: "1.18.33", model: "double/gpt-5", extraArgs: [],
    env: (url: string) => ({
      OPENCODE_CONFIG_CONTENT: opencodeFamilyConfig(url),
      OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1",
    }),
    toolName: (tool: string) => `ringmaster_${tool}`,
  },
  {
    adapter: "copilot", pkg: "@github/copilot", version: "1.0.102", model: "gpt-5", extraArgs: [],
    env: (url: string) => ({ COPILOT_OFFLINE: "true", COPILOT_PROVIDER_BASE_URL: url, COPILOT_PROVIDER_API_KEY: "sk-test" }),
    toolName: (tool: string) => `ringmaster-${tool}`,
  },
  {
    adapter: "kilo", pkg: "@kilocode/cli", version: "7.7.7", model: "double/gpt-5", extraArgs: [],
    env: (url: string) => ({
      KILO_CONFIG_CONTENT: opencodeFamilyConfig(url),
      // No XDG_CACHE_HOME under the CLI cache: the sandbox mounts that read-only; Kilo caches in the run's own HOME.
      KILO_DISABLE_MODELS_FETCH: "1", KILO_DISABLE_AUTOUPDATE: "1",
    }),
    toolName: (tool: string) => `ringmaster_${tool}`,
  },
  {
    adapter: "cline", pkg: "cline", version: "3.0.65", model: "gpt-5", extraArgs: [],
    env: (url: string) => ({
      CLINE_PROVIDERS_CONTENT: JSON.stringify({
        version: 1, lastUsedProvider: "openai-compatible", modes: {},
        providers: { "openai-compatible": { settings: { provider: "openai-compatible", apiKey: "sk-test", model: "gpt-5", baseUrl: url }, updatedAt: "2026-11-23T00:00:00.000Z", tokenSource: "manual" } },
      }),
    }),
    toolName: (tool: string) => `ringmaster__${tool}`,
  },
  {
    adapter: "droid", pkg: "droid", version: "0.215.0", model: "custom:gpt-5", extraArgs: [],
    env: (url: string) => ({
      DROID_SETTINGS_CONTENT: JSON.stringify({ customModels: [{ model: "gpt-5", displayName: "Double", baseUrl: url, apiKey: "sk-test", provider: "generic-chat-completion-api", maxOutputTokens: 4096 }] }),
    }),
    toolName: (tool: string) => `ringmaster___${tool}`,
  },
] as const;

const installed = await Promise.all(CLIS.map((c) => cachedCli(c.pkg, c.version)));
// The model asks for report_progress by the name the CLI gives it (Qwen Code offers MCP tools
// only through its tool_search, but runs them by that name).
const doubles = await Promise.all(CLIS.map((cli) => (otherHost ? startChatDouble(otherHost, {
  call: () => ({ name: cli.toolName("report_progress"), arguments: { text: "halfway, via MCP" } }),
  answer: "Reported.",
  usage: { prompt: 100, cached: 0, completion: 10, reasoning: 0 },
}) : null)));
afterAll(() => Promise.all(doubles.map((d) => d?.stop())));
process.env.SANDBOX_READ_ONLY_PATHS = CLI_CACHE;

describe.each(CLIS.map((c, i) => [c.adapter, c, installed[i], doubles[i]] as const))("the real %s CLI talks to Ringmaster over MCP from its sandbox", (adapter, cli, found, double) => {
  it.skipIf("skip" in found || !double)(`its report_progress call, made through its per-run MCP wiring, lands in the prompt's thread${"skip" in found ? ` (skipped: ${found.skip})` : ""}`, async () => {
    const env = cli.env(double!.url);
    Object.assign(process.env, env, { PATH: `${(found as { bin: string }).bin}:${process.env.PATH}` });
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const profile = await getDb().agentProfile.create({
      data: { teamId: team.id, name: adapter, adapter, model: cli.model, extraArgs: [...cli.extraArgs], envAllowList: Object.keys(env) },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id, networkMode: "allow-list", egressRules: [otherHost!] } });
    await addPrompt(project.id, { number: 1, title: "Report in", body: "Say how it goes." });

    const { run } = await tickAndRun(project.id);
    const log = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    expect(run!.status, log).toBe("succeeded");
    // The tools the CLI declared: to the model (opencode also asks it for a title, without tools), or
    // (Qwen Code) in its init line.
    // Factory Droid offers MCP tools only through its ToolSearch and lists none of them anywhere
    // (`droid exec --list-tools` does); it runs the one the model names, without an error.
    if (cli.adapter === "droid") {
      expect(log).toContain('"toolId":"ringmaster___report_progress","isError":false,"value":"{\\n  \\"seq\\": 1,\\n  \\"status\\": \\"sent\\"\\n}"');
    } else {
      const declared = cli.adapter === "qwen" ? JSON.parse(log.split("\n").find((l) => l.includes('"subtype":"init"'))!).tools as string[] : [...new Set(double!.state.tools.flat())];
      expect(declared.filter((t) => t.includes("ringmaster")).sort(), log).toEqual(TOOLS.map(cli.toolName));
    }
    const thread = await getDb().thread.findUniqueOrThrow({ where: { promptId: run!.promptId! }, include: { turns: true } });
    expect(thread.turns.map((t) => [t.seq, t.actor, t.action, t.actorId, t.content])).toEqual([[1, "worker", "progress", run!.id, "halfway, via MCP"]]);
  }, 240_000);
});
