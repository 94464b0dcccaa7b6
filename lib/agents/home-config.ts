/**
 * CLIs that read their model provider only from a file in HOME, with no variable or flag of their
 * own for it: a profile passes the file's JSON in a variable (allow-listed, or a team credential),
 * and Ringmaster writes it into the run's private HOME, where the CLI looks, before it starts.
 * - Cline 3.0.65: `~/.cline/data/settings/providers.json`, as `cline auth` writes it.
 * - Factory Droid 0.215.0: `~/.factory/settings.json` (`customModels`: a model of one's own).
 */
export const HOME_CONFIG: Record<string, { variable: string; path: string }> = {
  cline: { variable: "CLINE_PROVIDERS_CONTENT", path: ".cline/data/settings/providers.json" },
  droid: { variable: "DROID_SETTINGS_CONTENT", path: ".factory/settings.json" },
};

/**
 * The file to write for `adapter` from its variable in the run's environment: none when the
 * adapter has no such file or the variable is unset; an error naming the variable when it does
 * not hold a JSON object.
 */
export function homeConfigFile(adapter: string, env: Record<string, string | undefined>): { path: string; content: string } | { error: string } | null {
  const config = HOME_CONFIG[adapter];
  const value = config ? env[config.variable] : undefined;
  if (!config || value === undefined || value === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { error: `${config.variable} is not valid JSON` };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return { error: `${config.variable} must hold a JSON object` };
  return { path: config.path, content: `${JSON.stringify(parsed, null, 2)}\n` };
}

const SECRET_FIELD = /(key|token|secret|password|credential)s?$/i;

/**
 * The secrets inside a provider file's JSON (Cline's and droid's `apiKey`, or any field named like
 * a key, token, secret or password), by the variable's name and field, for the run's log to mask:
 * the variable's name does not look like a secret, but its value holds one.
 */
export function homeConfigSecrets(adapter: string, env: Record<string, string | undefined>): Record<string, string> {
  const config = HOME_CONFIG[adapter];
  const value = config ? env[config.variable] : undefined;
  if (!config || !value) return {};
  const secrets: Record<string, string> = {};
  const walk = (node: unknown, field: string) => {
    if (typeof node === "string") {
      if (!SECRET_FIELD.test(field)) return;
      let name = `${config.variable} ${field}`;
      for (let n = 2; name in secrets; n++) name = `${config.variable} ${field} ${n}`;
      secrets[name] = node;
    } else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) walk(v, Array.isArray(node) ? field : k);
    }
  };
  try {
    walk(JSON.parse(value), "");
  } catch {
    // Not JSON: the run fails before the CLI starts, with nothing of it in the log.
  }
  return secrets;
}
