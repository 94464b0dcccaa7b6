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

/**
 * The first placeholder the template puts inside quotes, if any. Ringmaster quotes the value
 * itself; inside '…' the quotes would cancel out and inside "…" the shell would run `$(…)` from
 * the prompt, so such a template is refused when saved.
 */
export function quotedPlaceholder(template: string): string | null {
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === "\\" && quote !== "'") { i++; continue; }
    if (quote === null && (c === "'" || c === '"')) quote = c;
    else if (c === quote) quote = null;
    else if (quote && c === "{") {
      const m = /^\{(prompt|model)\}/.exec(template.slice(i));
      if (m) return m[0];
    }
  }
  return null;
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
