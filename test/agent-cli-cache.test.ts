// The test helper that installs real agent CLIs for the conformance tests: two test files asking
// for the same CLI at once (Vitest's workers, Stryker's) both get a whole, working install.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { cachedCli } from "./helpers/agent-cli-cache";

const run = promisify(execFile);
const cache = await mkdtemp(join(tmpdir(), "rm-cli-cache-"));
afterAll(() => rm(cache, { recursive: true, force: true }));

describe("the agent CLI cache of the tests", () => {
  it("installs a package once for callers at once, each answered with its working executables, leaving no partial folder", async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => cachedCli("semver", "7.6.0", cache)));
    expect(a).toEqual({ bin: join(cache, "semver-7.6.0", "node_modules", ".bin") });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const { stdout } = await run(join((a as { bin: string }).bin, "semver"), ["--increment", "minor", "1.2.3"]);
    expect(stdout.trim()).toBe("1.3.0");
    expect(await readdir(cache)).toEqual(["semver-7.6.0"]);
    // Asked again, it installs nothing.
    expect(await cachedCli("semver", "7.6.0", cache)).toEqual(a);
  }, 300_000);

  it("replaces an install that never finished (no mark), and names a package the registry does not have", async () => {
    const stale = join(cache, "is-number-7.0.0");
    await mkdir(join(stale, "node_modules"), { recursive: true });
    expect(await cachedCli("is-number", "7.0.0", cache)).toEqual({ bin: join(stale, "node_modules", ".bin") });
    expect(existsSync(join(stale, "node_modules", "is-number", "package.json"))).toBe(true);

    const missing = await cachedCli("ringmaster-no-such-package-here", "0.0.1", cache);
    expect(missing).toEqual({ skip: expect.stringMatching(/^ringmaster-no-such-package-here@0\.0\.1 could not be installed from the npm registry: /) });
    expect((await readdir(cache)).sort()).toEqual(["is-number-7.0.0", "semver-7.6.0"]);
  }, 300_000);
});
