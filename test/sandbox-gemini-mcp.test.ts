import { mkdirSync, writeFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { cachedCli, CLI_CACHE } from "./helpers/agent-cli-cache";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { startGeminiDouble } from "./helpers/gemini-double";
import { tickAndRun } from "./helpers/run-once";

const cli = await cachedCli("@google/gemini-cli", "0.61.0");
const otherHost = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

// The model asks for Ringmaster's report_progress, by the name Gemini CLI declared it under.
const double = otherHost ? await startGeminiDouble(otherHost, {
  write: () => ({ file_path: "unused", content: "" }),
  mcp: { tool: "report_progress", args: { text: "gemini is halfway, via MCP" } },
  answer: "Reported.",
  usage: { prompt: 100, cached: 0, candidates: 10, thoughts: 0 },
}) : null;
afterAll(() => double?.stop());

// A team pointing Gemini CLI at its own endpoint does so with the CLI's own system defaults
// (an API key as the auth, where a base URL alone means a gateway): a file readable in the
// sandbox, in a folder no one else may write to (Gemini CLI skips it otherwise, /tmp included).
const defaults = join(CLI_CACHE, "gemini-defaults");
mkdirSync(defaults, { recursive: true, mode: 0o755 });
writeFileSync(join(defaults, "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }), { mode: 0o644 });
if ("bin" in cli && double) {
  Object.assign(process.env, {
    SANDBOX_READ_ONLY_PATHS: CLI_CACHE, PATH: `${cli.bin}:${process.env.PATH}`,
    GEMINI_API_KEY: "test-key", GOOGLE_GEMINI_BASE_URL: double.url, GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(defaults, "settings.json"),
  });
}

describe.skipIf("skip" in cli || !double)("the real Gemini CLI talks to Ringmaster over MCP from its sandbox", () => {
  it("its report_progress call, made through its per-run settings, lands as a worker turn in the prompt's thread", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const gemini = await getDb().agentProfile.create({
      data: { teamId: team.id, name: "gemini", adapter: "gemini", model: "gemini-2.5-pro", envAllowList: ["GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: gemini.id, networkMode: "allow-list", egressRules: [otherHost!] } });
    await addPrompt(project.id, { number: 1, title: "Report in", body: "Say how it goes." });

    const { run } = await tickAndRun(project.id);
    const log = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    expect(run!.status, log).toBe("succeeded");
    // Gemini CLI declares an MCP server's tools as mcp_<server>_<tool>.
    expect(double!.state.tools.filter((t) => t.startsWith("mcp_")).sort()).toEqual([
      "mcp_ringmaster_complete_task", "mcp_ringmaster_create_prompt", "mcp_ringmaster_get_task", "mcp_ringmaster_post_message",
      "mcp_ringmaster_read_messages", "mcp_ringmaster_report_progress", "mcp_ringmaster_verify", "mcp_ringmaster_wait_for_user",
    ]);
    expect(JSON.stringify(double!.state.responses.at(-1))).toContain(String.raw`{\"seq\":1,\"status\":\"sent\"}`);
    const thread = await getDb().thread.findUniqueOrThrow({ where: { promptId: run!.promptId! }, include: { turns: true } });
    expect(thread.turns.map((t) => [t.seq, t.actor, t.action, t.actorId, t.content])).toEqual([[1, "worker", "progress", run!.id, "gemini is halfway, via MCP"]]);
    expect(run!.egress).toMatchObject({ blocked: {}, recorded: ["agent"] });
  }, 180_000);
});
