import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { networkInterfaces } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runBranchName } from "@/lib/git";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { startMessagesDouble } from "./helpers/messages-double";
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

let target = "";
const double = otherHost ? await startMessagesDouble(otherHost, () => ({ name: "Write", input: { file_path: target, content: "written by claude\n" } })) : null;
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

describe.skipIf(!nativeClaude || !double)("a real agent CLI in the sandbox", () => {
  it("Claude Code edits its worktree through a model API on the allow-list; the work is committed and merged", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ cooldownMs: 0 });
    const claude = await getDb().agentProfile.create({
      data: { teamId: team.id, name: "claude", adapter: "claude", envAllowList: ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] },
    });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: claude.id, networkMode: "allow-list", egressRules: [otherHost!] } });
    const dataDir = resolve(process.env.DATA_DIR!);
    target = join(dataDir, "worktrees", project.id, runBranchName(1, "Say hello").replaceAll("/", "_"), "hello.txt");
    await addPrompt(project.id, { number: 1, title: "Say hello", body: "Write hello.txt" });

    const { run } = await tickAndRun(project.id);
    expect(run!.status).toBe("succeeded");
    expect(run!.mergeStatus).toBe("merged");
    expect(execFileSync("git", ["-C", repoPath, "show", "main:hello.txt"], { encoding: "utf8" })).toBe("written by claude\n");
    expect(double!.requests).toEqual(["POST /v1/messages?beta=true", "POST /v1/messages?beta=true"]);
    expect(run!.egress).toEqual({ allowed: { [otherHost!]: 2 }, blocked: {}, recorded: ["agent"] });
  });
});
