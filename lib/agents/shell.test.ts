import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { runAgentProcess } from "@/lib/agents/process";
import { expandCommandTemplate, quoteShellArg, shellAdapter } from "@/lib/agents/shell";
import { fixtureEnv, tempDir } from "@/lib/agents/testing";

const HOSTILE = `$(touch pwned) \`touch pwned2\` "double" 'single' ; touch pwned3 && echo {model} \\ $HOME`;

async function runShell(commandTemplate: string, prompt: string, model?: string) {
  const worktree = await tempDir();
  const lines: string[] = [];
  const result = await runAgentProcess({
    ...shellAdapter.build({ prompt, model, commandTemplate, worktree }),
    cwd: worktree,
    env: fixtureEnv(),
    onLine: (l) => lines.push(l.line),
  });
  return { result, lines, files: await readdir(worktree) };
}

describe("shell adapter", () => {
  it("quotes any value so the shell reads it back byte for byte", () => {
    expect(quoteShellArg("it's")).toBe(`'it'\\''s'`);
    expect(quoteShellArg("")).toBe("''");
  });

  it("fills {prompt} and {model} in one pass, leaving a prompt that mentions {model} as written", () => {
    expect(expandCommandTemplate("agent --model {model} {prompt}", { prompt: "use {model}", model: "m1" })).toBe(
      "agent --model 'm1' 'use {model}'",
    );
    expect(expandCommandTemplate("agent -m {model}", { prompt: "p" })).toBe("agent -m ''");
  });

  it("builds a /bin/sh command, quoting extra args; without {prompt} the prompt goes to stdin", () => {
    expect(shellAdapter.build({ prompt: "p", commandTemplate: "echo {prompt}", worktree: "/r", extraArgs: ["a b"] })).toEqual({
      command: "echo 'p' 'a b'",
      args: [],
      shell: true,
      stdin: undefined,
    });
    expect(shellAdapter.build({ prompt: "p", commandTemplate: "my-agent", worktree: "/r" })).toMatchObject({ command: "my-agent", stdin: "p" });
  });

  it("needs a command template", () => {
    expect(() => shellAdapter.build({ prompt: "p", worktree: "/r" })).toThrow(/needs a command template/);
  });

  it("is safe against injection: `echo {prompt}` prints a hostile prompt verbatim and runs none of it", async () => {
    const { result, lines, files } = await runShell("echo {prompt} {model}", HOSTILE, "$(touch pwned4)");
    expect(result.exitCode).toBe(0);
    expect(lines).toEqual([`${HOSTILE} $(touch pwned4)`]);
    expect(files).toEqual([]);
  });

  it("sends the prompt on stdin when the template has no {prompt}", async () => {
    const { lines, files } = await runShell("cat", HOSTILE);
    expect(lines).toEqual([HOSTILE]);
    expect(files).toEqual([]);
  });

  it("reads stdout as text and stderr as log", () => {
    expect(shellAdapter.parseLine("done", "stdout")).toEqual([{ type: "text", text: "done" }]);
    expect(shellAdapter.parseLine("oops", "stderr")).toEqual([{ type: "log", text: "oops" }]);
  });
});
