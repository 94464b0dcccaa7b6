import { parsePlainTextLine } from "@/lib/agents/plain-text";
import type { AgentAdapter } from "@/lib/agents/types";

/** POSIX single quoting: the shell reads the value back byte for byte, expanding nothing. */
export function quoteShellArg(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Fills `{prompt}` and `{model}` with quoted values in one pass, so a prompt that contains
 * "{model}" stays as written. Placeholders belong outside quotes in the template: inside
 * double quotes the shell would expand `$(...)` in the value.
 */
export function expandCommandTemplate(template: string, values: { prompt: string; model?: string }): string {
  return template.replace(/\{(prompt|model)\}/g, (_, key: "prompt" | "model") => quoteShellArg(values[key] ?? ""));
}

export const shellAdapter: AgentAdapter = {
  name: "shell",
  build: ({ prompt, model, commandTemplate, extraArgs = [] }) => {
    if (!commandTemplate?.trim()) throw new Error("The shell agent needs a command template, e.g. `my-agent {prompt}`");
    const command = [expandCommandTemplate(commandTemplate, { prompt, model }), ...extraArgs.map(quoteShellArg)].join(" ");
    return { command, args: [], shell: true, stdin: commandTemplate.includes("{prompt}") ? undefined : prompt };
  },
  parseLine: parsePlainTextLine,
};
