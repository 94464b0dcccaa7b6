import { createRequire } from "node:module";
import { networkInterfaces } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { startMessagesDouble, type ToolCall } from "./helpers/messages-double";
import { tickAndRun } from "./helpers/run-once";

// Claude Code ships a native binary per platform; its install script (which links `claude`) may not run.
const nativeClaude = (() => {
  try {
    return join(dirname(createRequire(import.meta.url).resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}/package.json`)), "claude");
  } catch {
    return null;
  }
})();
const otherHost = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

// What the model asks for next: one call of a Ringmaster tool, then the end of the turn.
let call: ToolCall = { name: "", input: {} };
const double = otherHost ? await startMessagesDouble(otherHost, () => call) : null;
afterAll(() => double?.stop());

if (nativeClaude && double) {
  Object.assign(process.env, {
    SANDBOX_READ_ONLY_PATHS: dirname(nativeClaude),
    PATH: `${dirname(nativeClaude)}:${process.env.PATH}`,
    ANTHROPIC_BASE_URL: double.url,
    ANTHROPIC_API_KEY: "sk-ant-test-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  });
}

async function claudeProject(role: "executor" | "planner") {
  const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
  const claude = await getDb().agentProfile.create({
    data: { teamId: team.id, name: "claude", adapter: "claude", envAllowList: ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] },
  });
  const profile = role === "executor" ? { executorProfileId: claude.id } : { plannerEnabled: true, plannerProfileId: claude.id };
  await getDb().projectSettings.update({ where: { projectId: project.id }, data: { ...profile, networkMode: "allow-list", egressRules: [otherHost!] } });
  return project;
}

/** The tool result Claude Code sent back to the model for the call it was asked to make. */
function toolResult(): string {
  const last = double!.bodies.at(-1) as { messages: { content: unknown }[] };
  const block = (last.messages.at(-1)!.content as { type: string; content: unknown }[]).find((b) => b.type === "tool_result")!;
  return typeof block.content === "string" ? block.content : (block.content as { text: string }[]).map((c) => c.text).join("");
}

describe.skipIf(!nativeClaude || !double)("Claude Code talks to Ringmaster over MCP from its sandbox", () => {
  it("an executor's report_progress call lands as a worker turn in its prompt's thread", async () => {
    const project = await claudeProject("executor");
    await addPrompt(project.id, { number: 1, title: "Report in", body: "Say how it goes." });
    call = { name: "mcp__ringmaster__report_progress", input: { text: "halfway through, via MCP" } };
    const before = double!.requests.length;

    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    expect(double!.requests.length - before).toBe(2);
    expect(JSON.parse(toolResult())).toEqual({ seq: 1, status: "sent" });
    const thread = await getDb().thread.findUniqueOrThrow({ where: { promptId: run!.promptId! }, include: { turns: true } });
    expect(thread.turns.map((t) => [t.actor, t.action, t.actorId, t.content, t.seq])).toEqual([["worker", "progress", run!.id, "halfway through, via MCP", 1]]);
    expect(run!.egress).toEqual({ allowed: { [otherHost!]: 2 }, blocked: {}, recorded: ["agent"] });
  });

  it("a planner adds its prompts with create_prompt instead of writing prompt files", async () => {
    const project = await claudeProject("planner");
    call = { name: "mcp__ringmaster__create_prompt", input: { title: "Add a health page", body: "GET /health answers ok.", priority: 2 } };

    const { run } = await tickAndRun(project.id);
    expect(run!.kind).toBe("planner");
    expect(run!.status).toBe("succeeded");
    const sent = double!.prompts.at(-2)!;
    expect(sent).toContain("Add each with the `create_prompt` tool of the `ringmaster` MCP server");
    expect(sent).not.toContain("Write each as a prompt file");
    const prompts = await getDb().prompt.findMany({ where: { projectId: project.id } });
    expect(prompts.map((p) => [p.number, p.title, p.body, p.priority, p.origin, p.status])).toEqual([[1, "Add a health page", "GET /health answers ok.", 2, "planner", "pending"]]);
    expect(JSON.parse(toolResult())).toMatchObject({ id: prompts[0].id, number: 1 });
  });
});
