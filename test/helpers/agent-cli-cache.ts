import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where the conformance tests keep the agent CLIs they install: never a dependency of the app. */
export const CLI_CACHE = resolve(".cache", "agent-clis");

/**
 * Installs `pkg@version` (pinned) into its own folder of the cache, once, and answers the
 * folder of its executables; or, when the registry cannot be reached, a one-line reason.
 * Test files running at once (Vitest's workers, Stryker's) may ask for the same CLI: each installs
 * into a folder of its own and moves it into place whole, so none sees another's half-made
 * install (two installs into one folder left it marked installed with no node_modules).
 */
export async function cachedCli(pkg: string, version: string, cache = CLI_CACHE): Promise<{ bin: string } | { skip: string }> {
  const dir = join(cache, `${pkg.replace(/[@/]/g, "_")}-${version}`);
  const bin = join(dir, "node_modules", ".bin");
  if (existsSync(join(dir, "installed"))) return { bin };
  const part = `${dir}.part-${process.pid}-${randomBytes(4).toString("hex")}`;
  await mkdir(part, { recursive: true });
  try {
    await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--prefix", part, `${pkg}@${version}`], { timeout: 600_000 });
    await writeFile(join(part, "installed"), "");
  } catch (err) {
    await rm(part, { recursive: true, force: true });
    return { skip: `${pkg}@${version} could not be installed from the npm registry: ${(err as Error).message.split("\n")[0]}` };
  }
  // A folder there without the mark is an install that never finished: ours replaces it.
  if (existsSync(dir) && !existsSync(join(dir, "installed"))) await rm(dir, { recursive: true, force: true });
  try {
    await rename(part, dir);
  } catch (err) {
    // Another process's install got there first: its is as good as ours.
    await rm(part, { recursive: true, force: true });
    if (!existsSync(join(dir, "installed"))) throw err;
  }
  return { bin };
}
