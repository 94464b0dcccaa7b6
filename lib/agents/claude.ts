import { parseClaudeStreamLine } from "@/lib/agents/claude-stream";
import { permissionArgs } from "@/lib/agents/permission-modes";
import type { AgentAdapter } from "@/lib/agents/types";

// Flags checked against `claude --help` of @anthropic-ai/claude-code 2.1.330. The permission mode
// is the profile's (permission-modes.ts); the sandbox runs the agent as an unprivileged user, so
// claude accepts bypassPermissions there.
// The prompt goes on stdin, which `claude -p` reads when no prompt argument is given: no prompt
// text is read as a flag, and a long one does not hit the kernel's 128 KiB limit on one argument.
export const claudeAdapter: AgentAdapter = {
  name: "claude",
  build: ({ prompt, model, extraArgs = [], permissionMode }) => ({
    command: "claude",
    args: [
      "-p",
      "--output-format", "stream-json",
      "--verbose",
      ...permissionArgs("claude", permissionMode, extraArgs),
      ...(model ? ["--model", model] : []),
      ...extraArgs,
    ],
    stdin: prompt,
  }),
  parseLine: (line) => parseClaudeStreamLine(line),
};
