import { parseClaudeStreamLine } from "@/lib/agents/claude-stream";
import type { AgentAdapter } from "@/lib/agents/types";

// Flags checked against `claude --help` of @anthropic-ai/claude-code 2.1.197. acceptEdits lets a
// headless run edit files; bypassPermissions would also allow Bash but claude refuses it under
// root, so a project that wants it passes it in extraArgs (the last --permission-mode wins).
// The prompt goes on stdin, which `claude -p` reads when no prompt argument is given: no prompt
// text is read as a flag, and a long one does not hit the kernel's 128 KiB limit on one argument.
export const claudeAdapter: AgentAdapter = {
  name: "claude",
  build: ({ prompt, model, extraArgs = [] }) => ({
    command: "claude",
    args: [
      "-p",
      "--output-format", "stream-json",
      "--verbose",
      "--permission-mode", "acceptEdits",
      ...(model ? ["--model", model] : []),
      ...extraArgs,
    ],
    stdin: prompt,
  }),
  parseLine: (line) => parseClaudeStreamLine(line),
};
