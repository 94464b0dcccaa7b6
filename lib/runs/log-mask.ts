import { HOME_CONFIG, homeConfigSecrets } from "@/lib/agents/home-config";

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/;
// Ringmaster's own tokens (lib/auth/tokens.ts: `rm_<kind>_` + 32 random bytes, base64url), masked
// by their shape wherever they come from: the server holds only their hashes.
const RINGMASTER_TOKEN = /\brm_(run|api|runner|inv)_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/**
 * The values a run's log never shows as they are, by name: the team's provider keys given to the
 * run, the variables it may see whose names look like secrets, the keys inside a provider file's
 * JSON (CLINE_PROVIDERS_CONTENT, DROID_SETTINGS_CONTENT), and the run's own token. The same list
 * for a worker's run and a runner's: a worker masks what it gave its agent, a runner what it gave
 * its own, and the server what it knows of a runner's run (the team's keys) when a chunk comes in.
 */
export function runLogSecrets(input: {
  /** The agent's environment, or what of it the caller knows. */
  env: Record<string, string | undefined>;
  /** The variables the agent may see beyond the base ones (a profile's allow-list, a runner's --pass-env). */
  passed: readonly string[];
  credentials?: Record<string, string>;
  token?: string | null;
}): Record<string, string> {
  const { env, credentials = {} } = input;
  const named = Object.fromEntries(input.passed.filter((n) => SECRET_NAME.test(n) && env[n]).map((n) => [n, env[n]!]));
  return {
    ...named,
    // Every provider file's variable the run holds, whichever adapter it is for.
    ...Object.assign({}, ...Object.keys(HOME_CONFIG).map((adapter) => homeConfigSecrets(adapter, { ...credentials, ...env }))),
    ...credentials,
    ...(input.token ? { RINGMASTER_TOKEN: input.token } : {}),
  };
}

/**
 * Masks secret values in log lines: a line that holds one (an agent printing its environment, a
 * CLI echoing its API key in an error) gets `[NAME masked]` in its place. Values under 8
 * characters are too common to mask.
 */
export class LogMask {
  private secrets: { value: string; name: string }[] = [];

  add(secrets: Record<string, string>): this {
    for (const [name, value] of Object.entries(secrets)) if (value.length >= 8) this.secrets.push({ name, value });
    // The longest first, so a value that contains another is masked whole.
    this.secrets.sort((a, b) => b.value.length - a.value.length);
    return this;
  }

  apply(raw: string): string {
    let line = raw;
    for (const { name, value } of this.secrets) if (line.includes(value)) line = line.replaceAll(value, `[${name} masked]`);
    return line.includes("rm_") ? line.replace(RINGMASTER_TOKEN, (_t, kind: string) => (kind === "run" ? "[RINGMASTER_TOKEN masked]" : "[Ringmaster token masked]")) : line;
  }
}
