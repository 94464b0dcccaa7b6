import { DomainError, INTERNAL } from "@/lib/errors";

// An agent shares the repository's .git with Ringmaster, so its config is untrusted input: keys
// that make git run a program or talk to another host must not act in Ringmaster's own commands.
// Hooks and fsmonitor are switched off on every call (run.ts); what only the repository's config
// can name (a filter driver, a URL rewrite) is read first and neutralized, or the command refused.

export class PlantedConfigError extends DomainError {
  constructor(message: string) {
    super(500, INTERNAL, message);
  }
}

const NETWORK = new Set(["clone", "fetch", "push", "ls-remote", "pull"]);
const MERGING = new Set(["merge", "rebase", "cherry-pick", "revert", "pull"]);

// Keys git would otherwise act on (lower case, as `git config --list` prints them).
const NETWORK_KEYS = /^(url\..*\.(insteadof|pushinsteadof)|http\..*|core\.(sshcommand|gitproxy|askpass))$/;
const ANY_COMMAND_KEYS = /^core\.worktree$/;

/**
 * `git config --list --show-scope -z` output (scope NUL key LF value NUL ...), without what this
 * process itself passes on the command line or through GIT_CONFIG_COUNT ("command" scope).
 */
export function parseConfigList(listed: string): Array<[string, string]> {
  const fields = listed.split("\0");
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === "command") continue;
    const newline = fields[i + 1].indexOf("\n");
    out.push(newline < 0 ? [fields[i + 1], ""] : [fields[i + 1].slice(0, newline), fields[i + 1].slice(newline + 1)]);
  }
  return out;
}

// "filter.<driver>.clean": the subsection keeps its case and may hold dots.
const subsection = (key: string) => key.slice(key.indexOf(".") + 1, key.lastIndexOf("."));

/**
 * The `-c` overrides that neutralize what the repository's config plants for this command;
 * throws PlantedConfigError for what cannot be neutralized (a refusal names the key).
 */
export function plantedConfigOverrides(entries: Array<[string, string]>, args: readonly string[]): string[] {
  const command = args[0];
  const overrides = new Set<string>();
  for (const [key, value] of entries) {
    const lower = key.toLowerCase();
    const refuse = ANY_COMMAND_KEYS.test(lower)
      || (NETWORK.has(command) && (NETWORK_KEYS.test(lower) || (lower.startsWith("remote.") && args.includes(subsection(key)))))
      || (MERGING.has(command) && /^merge\..*\.driver$/.test(lower));
    if (refuse) {
      throw new PlantedConfigError(`the repository's config sets ${key}=${value}, which Ringmaster does not follow in \`git ${command}\`; remove it from the repository's config`);
    }
    if (/^filter\..*\.(clean|smudge|process|required)$/.test(lower)) {
      const driver = subsection(key);
      for (const step of ["clean", "smudge", "process"]) overrides.add(`filter.${driver}.${step}=`);
      overrides.add(`filter.${driver}.required=false`);
    }
  }
  return [...overrides].flatMap((o) => ["-c", o]);
}
