import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type PublicRepository = { package: string; version: string; integrity: string; tree: string };

export const PUBLIC_REPOSITORY: PublicRepository = JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/public-repository.json"), "utf8"));

/**
 * A real public repository's source as a git repository: the package's tarball is fetched from the
 * npm registry (`npm pack`, the only network this machine has), checked against the pinned
 * integrity, and its source tree committed, once per machine into a cache folder. Returns the
 * repository's path, or the reason it could not be fetched.
 */
export function publicRepository(fixture = PUBLIC_REPOSITORY): { path: string } | { skipped: string } {
  const cache = join(tmpdir(), "ringmaster-public-repositories");
  const path = join(cache, `${fixture.package}-${fixture.version}`);
  if (existsSync(join(path, ".git"))) return { path };
  const work = join(cache, `download-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    let packed: Array<{ filename: string }>;
    try {
      packed = JSON.parse(execFileSync("npm", ["pack", `${fixture.package}@${fixture.version}`, "--json", "--pack-destination", work], { cwd: work, encoding: "utf8", timeout: 120_000, stdio: ["ignore", "pipe", "pipe"] }));
    } catch (err) {
      return { skipped: `npm pack could not fetch ${fixture.package}@${fixture.version} from the registry (${(err as Error).message.split("\n")[0]})` };
    }
    const tarball = join(work, packed[0].filename);
    const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
    if (integrity !== fixture.integrity) throw new Error(`${fixture.package}@${fixture.version}: integrity ${integrity} is not the pinned ${fixture.integrity}`);
    execFileSync("tar", ["-xzf", tarball, "-C", work]);
    const staging = join(work, "repo");
    cpSync(join(work, "package", fixture.tree), staging, { recursive: true });
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null", ...args], { cwd: staging, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-qm", `${fixture.package}@${fixture.version} ${fixture.tree}/`);
    rmSync(path, { recursive: true, force: true });
    cpSync(staging, path, { recursive: true });
    return { path };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
