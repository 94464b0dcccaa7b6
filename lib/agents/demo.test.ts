import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_AGENT_PATH, demoAdapter } from "@/lib/agents/demo";
import { runAgentProcess } from "@/lib/agents/process";
import { fixtureEnv, tempDir } from "@/lib/agents/testing";

async function runDemo(prompt: string, opts: { cwd?: string; model?: string } = {}) {
  const cwd = opts.cwd ?? (await tempDir());
  const stdout: string[] = [];
  const stderr: string[] = [];
  const result = await runAgentProcess({
    ...demoAdapter.build({ prompt, model: opts.model, worktree: cwd }),
    cwd,
    env: fixtureEnv(),
    onLine: (l) => (l.stream === "stdout" ? stdout : stderr).push(l.line),
  });
  const events = stdout.flatMap((line) => demoAdapter.parseLine(line, "stdout"));
  return { cwd, exitCode: result.exitCode, stdout, stderr, events, durationMs: result.durationMs };
}

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\`\`\`\n`;

describe("demo agent", () => {
  it("runs bin/demo-agent.mjs with node, the prompt on stdin", () => {
    expect(DEMO_AGENT_PATH).toMatch(/\/bin\/demo-agent\.mjs$/);
    expect(demoAdapter.build({ prompt: "p", model: "fast", worktree: "/r" })).toEqual({
      command: process.execPath,
      args: [DEMO_AGENT_PATH, "--model", "fast"],
      stdin: "p",
    });
  });

  it("writes, appends and deletes files in order, reporting each as a tool call", async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, "old.txt"), "old\n");
    await writeFile(join(cwd, "log.md"), "# Log\n");
    const prompt = [
      "Please do the following.",
      "print Starting",
      fence("file src/deep/a.txt", "one\ntwo\n"),
      fence("append log.md", "- entry\n"),
      fence("delete old.txt", ""),
      fence("file src/deep/a.txt", "replaced\n"),
    ].join("\n");
    const { exitCode, events } = await runDemo(prompt, { cwd, model: "demo-1" });
    expect(exitCode).toBe(0);
    expect(await readFile(join(cwd, "src/deep/a.txt"), "utf8")).toBe("replaced\n");
    expect(await readFile(join(cwd, "log.md"), "utf8")).toBe("# Log\n- entry\n");
    expect(existsSync(join(cwd, "old.txt"))).toBe(false);
    expect(events.filter((e) => e.type !== "usage")).toEqual([
      { type: "init", model: "demo-1", sessionId: expect.any(String) },
      { type: "text", text: "Starting" },
      { type: "tool_use", id: "toolu_demo_01", name: "Write", input: { file_path: "src/deep/a.txt", content: "one\ntwo\n" } },
      { type: "tool_result", toolUseId: "toolu_demo_01", output: "Wrote 8 bytes to src/deep/a.txt", isError: false },
      { type: "tool_use", id: "toolu_demo_02", name: "Append", input: { file_path: "log.md", content: "- entry\n" } },
      { type: "tool_result", toolUseId: "toolu_demo_02", output: "Appended 8 bytes to log.md", isError: false },
      { type: "tool_use", id: "toolu_demo_03", name: "Delete", input: { file_path: "old.txt" } },
      { type: "tool_result", toolUseId: "toolu_demo_03", output: "Deleted old.txt", isError: false },
      { type: "tool_use", id: "toolu_demo_04", name: "Write", input: { file_path: "src/deep/a.txt", content: "replaced\n" } },
      { type: "tool_result", toolUseId: "toolu_demo_04", output: "Wrote 9 bytes to src/deep/a.txt", isError: false },
      { type: "text", text: "Done: 4 of 4 edits applied." },
      { type: "result", ok: true, summary: "Done: 4 of 4 edits applied.", costUsd: 0, inputTokens: 0, cacheReadTokens: 0, outputTokens: 0, turns: 6 },
    ]);
  });

  it("takes longer fences for content with ``` lines and leaves other code blocks alone", async () => {
    const prompt = `\`\`\`\`file README.md\n\`\`\`sh\nnpm test\n\`\`\`\n\`\`\`\`\n\n${fence("js", "print not a directive\nexit 9\n")}`;
    const { cwd, exitCode, events } = await runDemo(prompt);
    expect(exitCode).toBe(0);
    expect(await readFile(join(cwd, "README.md"), "utf8")).toBe("```sh\nnpm test\n```\n");
    expect(events.filter((e) => e.type === "text")).toEqual([{ type: "text", text: "Done: 1 of 1 edit applied." }]);
  });

  it.each([["../outside.txt"], ["/etc/passwd"], ["a/../../outside.txt"], [".git/config"], ["."]])(
    "refuses the path %s with exit code 2 and touches nothing",
    async (path) => {
      const prompt = `${fence("file first.txt", "x\n")}${fence(`file ${path}`, "x\n")}`;
      const { cwd, exitCode, stderr, events } = await runDemo(prompt);
      expect(exitCode).toBe(2);
      expect(stderr.join("\n")).toContain(path);
      expect(await readdir(cwd)).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: "result", ok: false, summary: expect.stringContaining(path) });
    },
  );

  it("refuses an unclosed block", async () => {
    expect((await runDemo("```file a.txt\nx\n")).exitCode).toBe(2);
  });

  it("never writes outside its worktree: absolute or escaping markers, and symlinks out, are refused", async () => {
    const outside = await tempDir();
    const cwd = await tempDir();
    await symlink(outside, join(cwd, "link"));
    await symlink(join(outside, "new.txt"), join(cwd, "dangling.txt"));
    for (const prompt of [
      `fail-once ${join(outside, "marker")}\n`,
      "fail-once ../marker\n",
      "fail-once link/marker\n",
      fence("file link/escaped.txt", "x\n"),
      fence("append link/deep/escaped.txt", "x\n"),
      fence("file dangling.txt", "x\n"),
    ]) {
      const { exitCode, stderr } = await runDemo(prompt, { cwd });
      expect(exitCode, prompt).toBe(2);
      expect(stderr.join("\n"), prompt).toContain("outside the worktree");
    }
    expect(await readdir(outside)).toEqual([]);
    expect((await readdir(cwd)).sort()).toEqual(["dangling.txt", "link"]);
  });

  it("exits with the code asked for, after making the edits", async () => {
    const { cwd, exitCode, events } = await runDemo(`exit 3\n${fence("file a.txt", "a\n")}`);
    expect(exitCode).toBe(3);
    expect(existsSync(join(cwd, "a.txt"))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "result", ok: false, summary: "Done: 1 of 1 edit applied. Exiting with code 3." });
  });

  it("exit … as <role> exits with that code only when the prompt's role is that role", async () => {
    const goal = `Keep notes.\nexit 4 as reflector\n${fence("answer reflector", '{"aligned": true}\n')}${fence("answer architect", "a plan\n")}`;
    const reflector = await runDemo(`Role: reflector\n\n${goal}`);
    expect(reflector.exitCode).toBe(4);
    expect(reflector.events.at(-1)).toMatchObject({ type: "result", ok: false, summary: "Done: 0 of 0 edits applied. Exiting with code 4." });
    const architect = await runDemo(`Role: architect\n\n${goal}`);
    expect(architect.exitCode).toBe(0);
    expect(architect.events.at(-1)).toMatchObject({ type: "result", ok: true, summary: "a plan" });
    // Without a role line no `as` matches; a malformed `exit` line is prose.
    expect((await runDemo(goal)).exitCode).toBe(0);
    expect((await runDemo("exit 4 as\nexit four")).exitCode).toBe(0);
  });

  it("fails when an edit fails, e.g. deleting a missing file", async () => {
    const { exitCode, events } = await runDemo(fence("delete missing.txt", ""));
    expect(exitCode).toBe(1);
    expect(events).toContainEqual({ type: "tool_result", toolUseId: "toolu_demo_01", output: "missing.txt does not exist", isError: true });
  });

  it("fail-once fails the first attempt before later edits, creating its marker, and succeeds the next", async () => {
    const prompt = `fail-once markers/p1\n${fence("file a.txt", "a\n")}`;
    const cwd = await tempDir();
    const marker = join(cwd, "markers", "p1");
    const first = await runDemo(prompt, { cwd });
    expect(first.exitCode).toBe(1);
    expect(existsSync(marker)).toBe(true);
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    expect(first.events.at(-1)).toMatchObject({ type: "result", ok: false });
    const second = await runDemo(prompt, { cwd });
    expect(second.exitCode).toBe(0);
    expect(await readFile(join(cwd, "a.txt"), "utf8")).toBe("a\n");
  });

  it("sleeps for the time asked", async () => {
    const { durationMs, exitCode } = await runDemo("sleep 300\n");
    expect(exitCode).toBe(0);
    expect(durationMs).toBeGreaterThanOrEqual(300);
  });

  it("is deterministic: the same prompt gives the same output and files in any worktree", async () => {
    const prompt = `print hi\n${fence("file x/y.txt", "y\n")}${fence("append x/y.txt", "z\n")}`;
    const [a, b] = [await runDemo(prompt), await runDemo(prompt)];
    expect(a.cwd).not.toBe(b.cwd);
    expect(a.stdout).toEqual(b.stdout);
    expect(await readFile(join(a.cwd, "x/y.txt"), "utf8")).toBe(await readFile(join(b.cwd, "x/y.txt"), "utf8"));
    const c = await runDemo(`${prompt}print more\n`);
    expect(c.stdout[0]).not.toEqual(a.stdout[0]);
  });

  it("treats a prompt without directives as nothing to do", async () => {
    const cwd = await tempDir();
    await mkdir(join(cwd, "keep"));
    const { exitCode, events } = await runDemo("Just think about it.\nexit now\n", { cwd });
    expect(exitCode).toBe(0);
    expect(await readdir(cwd)).toEqual(["keep"]);
    expect(events.at(-1)).toMatchObject({ type: "result", ok: true, summary: "Done: 0 of 0 edits applied." });
  });

  it("reports an MCP call as a failed step and exits 1 where no MCP server is wired", async () => {
    const { exitCode, events } = await runDemo('mcp post_message {"text":"hi"}\n');
    expect(exitCode).toBe(1);
    expect(events.filter((e) => e.type === "tool_use" || e.type === "tool_result")).toEqual([
      { type: "tool_use", id: "toolu_demo_mcp_01", name: "mcp__ringmaster__post_message", input: { text: "hi" } },
      { type: "tool_result", toolUseId: "toolu_demo_mcp_01", output: "no MCP server: RINGMASTER_MCP_URL is not set", isError: true },
    ]);
  });
});
