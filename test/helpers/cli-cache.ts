import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const CLI_CACHE = join(tmpdir(), "ringmaster-cli-cache");

/**
 * A real agent CLI from the npm registry, pinned, installed into a cache folder (never the
 * project's dependencies) the first time a test asks. Returns the folder of its executables, or
 * why it cannot be had here (one line, for the skip reason).
 */
export async function cachedCli(pkg: string, version: string): Promise<{ bin: string } | { reason: string }> {
  const prefix = join(CLI_CACHE, `${pkg.replace(/[@/]/g, "_")}-${version}`);
  const bin = join(prefix, "node_modules", ".bin");
  if (existsSync(join(prefix, "node_modules", pkg, "package.json"))) return { bin };
  try {
    await run("npm", ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", prefix, `${pkg}@${version}`], { timeout: 300_000 });
    return { bin };
  } catch (err) {
    return { reason: `${pkg}@${version} could not be installed: ${(err as Error).message.split("\n")[0]}` };
  }
}
