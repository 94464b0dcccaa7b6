import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { hostname } from "node:os";
import { isAbsolute, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Each adapter's program and where it comes from; `shell` runs the profile's own command. */
export const CLI_SOURCES: Record<string, { command: string; install: string }> = {
  claude: { command: "claude", install: "npm install -g @anthropic-ai/claude-code" },
  codex: { command: "codex", install: "npm install -g @openai/codex" },
  gemini: { command: "gemini", install: "npm install -g @google/gemini-cli" },
  qwen: { command: "qwen", install: "npm install -g @qwen-code/qwen-code" },
  pi: { command: "pi", install: "npm install -g @mariozechner/pi-coding-agent" },
  opencode: { command: "opencode", install: "npm install -g opencode-ai" },
  copilot: { command: "copilot", install: "npm install -g @github/copilot" },
  cline: { command: "cline", install: "npm install -g cline" },
  kilo: { command: "kilo", install: "npm install -g @kilocode/cli" },
  droid: { command: "droid", install: "npm install -g droid" },
  aider: { command: "aider", install: "python -m pip install aider-install && aider-install" },
};

/** Where `command` would be found on `path` (a PATH value), or null. */
export function whichOn(command: string, path: string): string | null {
  const candidates = isAbsolute(command) ? [command] : path.split(":").filter(Boolean).map((dir) => join(dir, command));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * A run's agent program that is not on its PATH, said plainly, instead of the `spawn ENOENT`
 * the kernel would give; null when it is there (or the command is a shell line).
 */
export function missingCli(adapter: string, command: string, path: string, host = hostname()): string | null {
  if (whichOn(command, path)) return null;
  const install = CLI_SOURCES[adapter]?.install;
  return `CLI \`${command}\` not installed on ${host}: the ${adapter} adapter runs it, and it is not on PATH ${path}${install ? `; install it with \`${install}\`` : ""}, or choose another adapter in the profile`;
}

export type CliFound = { adapter: string; command: string; path: string | null; version: string | null; install: string };

/** Each adapter's CLI as found on `path`: where, and the first line its `--version` prints. */
export async function detectClis(path: string): Promise<CliFound[]> {
  return Promise.all(Object.entries(CLI_SOURCES).map(async ([adapter, { command, install }]) => {
    const found = whichOn(command, path);
    if (!found) return { adapter, command, path: null, version: null, install };
    const version = await run(found, ["--version"], { timeout: 15_000, env: { PATH: path, HOME: "/tmp" } as unknown as NodeJS.ProcessEnv })
      .then(({ stdout }) => stdout.trim().split("\n")[0] || null, () => null);
    return { adapter, command, path: found, version, install };
  }));
}
