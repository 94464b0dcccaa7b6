import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where the conformance tests keep the agent CLIs they install: never a dependency of the app. */
export const CLI_CACHE = resolve(".cache", "agent-clis");

/**
 * Installs `pkg@version` (pinned) into its own folder of the cache, once, and answers the
 * folder of its executables; or, when the registry cannot be reached, a one-line reason.
 */
export async function cachedCli(pkg: string, version: string): Promise<{ bin: string } | { skip: string }> {
  const dir = join(CLI_CACHE, `${pkg.replace(/[@/]/g, "_")}-${version}`);
  const bin = join(dir, "node_modules", ".bin");
  if (existsSync(join(dir, "installed"))) return { bin };
  await mkdir(dir, { recursive: true });
  try {
    await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--prefix", dir, `${pkg}@${version}`], { timeout: 600_000 });
    await run("touch", [join(dir, "installed")]);
    return { bin };
  } catch (err) {
    return { skip: `${pkg}@${version} could not be installed from the npm registry: ${(err as Error).message.split("\n")[0]}` };
  }
}
