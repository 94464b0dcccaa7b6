import { HOME_CONFIG, homeConfigFile } from "@/lib/agents/home-config";
import type { SandboxSession } from "@/lib/sandbox/session";

/**
 * Writes the provider file a CLI reads from HOME (Cline, Factory Droid) into the run's private
 * HOME, from the variable the profile passes on, before the CLI starts; never a user's own file.
 * Throws, naming the variable, when its value is not a JSON object or the run has no private
 * HOME (unsandboxed), so the run fails with that reason instead of reaching no model.
 */
export async function writeHomeConfig(session: SandboxSession, adapter: string, env: Record<string, string | undefined>): Promise<string | null> {
  const file = homeConfigFile(adapter, env);
  if (!file) return null;
  if ("error" in file) throw new Error(file.error);
  const { variable } = HOME_CONFIG[adapter];
  try {
    await session.writeHomeFile(file.path, file.content);
  } catch (err) {
    throw new Error(`${variable} could not be written to ~/${file.path}: ${(err as Error).message}`);
  }
  return file.path;
}
