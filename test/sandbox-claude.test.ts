import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { networkInterfaces } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runBranchName } from "@/lib/git";
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

let tool: () => ToolCall = () => ({ name: "Write", input: {} });
const double = otherHost ? await startMessagesDouble(otherHost, () => tool()) : null;
afterAll(() => double?.stop());

if (nativeClaude && double) {
  // As an operator would: the CLI's folder readable in the sandbox, on the agents' PATH.
  Object.assign(process.env, {
    SANDBOX_READ_ONLY_PATHS: dirname(nativeClaude),
    PATH: `${dirname(nativeClaude)}:${process.env.PATH}`,
    ANTHROPIC_BASE_URL: double.url,
    ANTHROPIC_API_KEY: "sk-ant-test-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  });
}

/** A project whose executor is a real Claude Code reaching the double; its prompt 1 is `body`. */
async function claudeProject(title: string, body: string, profile: { permissionMode?: string } = {}) {
  const { team, project, repoPath } = await createTeamWithProject({ cooldownMs: 0 });
  const claude = await getDb().agentProfile.create({
    data: { teamId: team.id, name: "claude", adapter: "claude", envAllowList: ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"], ...profile },
  });
  await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: claude.id, networkMode: "allow-list", egressRules: [otherHost!] } });
  const worktree = join(resolve(process.env.DATA_DIR!), "worktrees", project.id, runBranchName(1, title).replaceAll("/", "_"));
  await addPrompt(project.id, { number: 1, title, body });
  return { project, repoPath, worktree };
}

describe.skipIf(!nativeClaude || !double)("a real agent CLI in the sandbox", () => {
  it("Claude Code edits its worktree through a model API on the allow-list; the work is committed and merged", async () => {
    const { project, repoPath, worktree } = await claudeProject("Say hello", "Write hello.txt");
    tool = () => ({ name: "Write", input: { file_path: join(worktree, "hello.txt"), content: "written by claude\n" } });
    double!.requests.length = 0;
    double!.models.length = 0;

    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    expect(run!.mergeStatus).toBe("merged");
    expect(execFileSync("git", ["-C", repoPath, "show", "main:hello.txt"], { encoding: "utf8" })).toBe("written by claude\n");
    expect(double!.requests).toEqual(["POST /v1/messages?beta=true", "POST /v1/messages?beta=true"]);
    expect(run!.egress).toEqual({ allowed: { [otherHost!]: 2 }, blocked: {}, recorded: ["agent"] });
    // The profile names no model: the run records the one Claude Code chose (its init line).
    expect(double!.models).toHaveLength(2);
    expect(double!.models[0]).toMatch(/^claude-/);
    expect(run!.model).toBe(double!.models[0]);
  });

  // Linux refuses a single argument over 128 KiB: such a prompt must reach the CLI on stdin.
  it("a 150 KB CJK prompt reaches Claude Code whole and the run succeeds", async () => {
    const body = `Write big.txt ${"漢字".repeat(25_000)}`;
    const { project, repoPath, worktree } = await claudeProject("Big prompt", body);
    tool = () => ({ name: "Write", input: { file_path: join(worktree, "big.txt"), content: "big\n" } });
    double!.prompts.length = 0;

    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    expect(execFileSync("git", ["-C", repoPath, "show", "main:big.txt"], { encoding: "utf8" })).toBe("big\n");
    // Not toContain: a failure would print 150 KB.
    expect(double!.prompts[0].endsWith(`# Prompt 1: Big prompt\n\n${body}`)).toBe(true);
  });

  it("a run whose tool calls Claude Code's permission mode denied fails, saying so, instead of done (no changes)", async () => {
    const { project } = await claudeProject("Run the tests", "Run npm test", { permissionMode: "acceptEdits" });
    tool = () => ({ name: "Bash", input: { command: "npm test", description: "Run the tests" } });

    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("failed");
    expect(run!.error).toBe("1 tool call (Bash) denied by the agent's permission mode; the work may be incomplete. Change the profile's permission mode to allow them");
    const prompt = await getDb().prompt.findFirstOrThrow({ where: { projectId: project.id, number: 1 } });
    expect(prompt.status).toBe("failed");
    expect(prompt.failureLog?.split("\n")[0]).toBe(run!.error);
  });

  it("by default (bypassPermissions, inside the sandbox) Claude Code runs shell commands", async () => {
    const { project, repoPath } = await claudeProject("Run a command", "Write ran.txt with the shell");
    tool = () => ({ name: "Bash", input: { command: "printf 'ran\\n' > ran.txt", description: "Write ran.txt" } });

    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    expect(execFileSync("git", ["-C", repoPath, "show", "main:ran.txt"], { encoding: "utf8" })).toBe("ran\n");
  });
});
