import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgentProcess } from "@/lib/agents/process";
import { credentialsForRun } from "@/lib/credentials/for-run";
import { encryptSecret } from "@/lib/crypto/secrets";
import { getDb } from "@/lib/db";
import { launcherEnvironment } from "@/lib/sandbox/bwrap";
import { startSandbox } from "@/lib/sandbox/session";
import { getSandboxStatus } from "@/lib/sandbox/status";
import { createTeamWithProject } from "./helpers/fixtures";

process.env.ENCRYPTION_KEY ??= "5e".repeat(32);

/**
 * A team admin names a credential's variable and its value, and an agent can write a library into
 * its worktree. LD_PRELOAD (or any variable the program loader acts on) pointing at it would run
 * that library in the processes that start the sandbox, outside it (nsenter and bwrap, as root
 * here): such a variable never reaches them, nor the agent.
 */
let dir: string;
let library: string;
let marker: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loader-vars-"));
  marker = join(dir, "loaded-outside");
  const source = join(dir, "evil.c");
  // Writes who loaded it, wherever the marker's path is writable (outside the sandbox: the host's).
  writeFileSync(source, `#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void loaded(void) {
  const char *path = getenv("MARKER");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (f) { fprintf(f, "uid %d\\n", (int)getuid()); fclose(f); }
}
`);
  library = join(dir, "evil.so");
  execFileSync("cc", ["-shared", "-fPIC", "-o", library, source]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("variables the program loader reads", () => {
  it("are what the library would be loaded by without the filter (the control case)", () => {
    execFileSync("/bin/true", [], { env: { LD_PRELOAD: library, MARKER: marker } as unknown as NodeJS.ProcessEnv });
    expect(existsSync(marker)).toBe(true);
    execFileSync("rm", [marker]);
  });

  it.each([
    ["joining a network made ahead (proxy and MCP gateway)", { mode: "allow-list" as const, mcp: true }],
    ["in a network of its own (no network allowed)", { mode: "none" as const, mcp: false }],
  ])("never reach the processes that start a sandbox, %s, nor the agent", async (_label, how) => {
    const status = await getSandboxStatus();
    if (!status.ok) throw new Error(status.reason);
    const session = await startSandbox(status.host, {
      worktree: dir, git: null, policy: { mode: how.mode, rules: [] }, readOnly: [],
      ...(how.mcp ? { mcp: { token: "t", serve: async () => new Response("") } } : {}),
    });
    const lines: string[] = [];
    try {
      const env = { PATH: "/usr/bin:/bin", LD_PRELOAD: library, LD_LIBRARY_PATH: dir, GLIBC_TUNABLES: "glibc.malloc.check=3", MARKER: marker, KEPT: "yes" };
      expect(Object.keys(session.launch({ command: "true", args: [], env }).env)).not.toContain("LD_PRELOAD");
      const result = await runAgentProcess({
        command: "/bin/sh", args: ["-c", 'echo "kept=$KEPT preload=${LD_PRELOAD:-none} path=${LD_LIBRARY_PATH:-none} tunables=${GLIBC_TUNABLES:-none}"'],
        cwd: dir, maxDurationMs: 30_000, env, onLine: ({ line }) => lines.push(line), launch: session.launch,
      });
      expect(result.exitCode).toBe(0);
    } finally {
      await session.close();
    }
    // Nothing loaded the library outside the sandbox (inside, the marker's path is not there).
    expect(existsSync(marker) ? readFileSync(marker, "utf8") : "not loaded").toBe("not loaded");
    expect(lines).toEqual(["kept=yes preload=none path=none tunables=none"]);
  });

  it("a PATH the command brings (a team's credential may set it) picks none of the programs that start it", async () => {
    const status = await getSandboxStatus();
    if (!status.ok) throw new Error(status.reason);
    // Stand-ins an agent could have written into its worktree: each says it ran, and as whom.
    const bin = join(dir, "bin");
    execFileSync("mkdir", ["-p", bin]);
    for (const name of ["setpriv", "readlink", "socat"]) {
      writeFileSync(join(bin, name), `#!/bin/sh\necho "fake ${name} as $(id -u)" >> ${join(dir, "fakes-ran")}\n`, { mode: 0o755 });
    }
    for (const how of [{ mode: "allow-list" as const, mcp: true }, { mode: "none" as const, mcp: false }]) {
      const session = await startSandbox(status.host, {
        worktree: dir, git: null, policy: { mode: how.mode, rules: [] }, readOnly: [],
        ...(how.mcp ? { mcp: { token: "t", serve: async () => new Response("") } } : {}),
      });
      const lines: string[] = [];
      try {
        await runAgentProcess({
          command: "/bin/sh", args: ["-c", "echo uid $(/usr/bin/id -u)"],
          cwd: dir, maxDurationMs: 30_000, env: { PATH: `${bin}:/usr/bin:/bin` }, onLine: ({ line }) => lines.push(line), launch: session.launch,
        });
      } finally {
        await session.close();
      }
      expect(lines).toEqual([`uid ${status.host.user?.uid ?? process.getuid!()}`]);
    }
    expect(existsSync(join(dir, "fakes-ran")) ? readFileSync(join(dir, "fakes-ran"), "utf8") : "none ran").toBe("none ran");
  });

  it("is dropped from a team's credentials a profile allow-lists, even for a row the form did not write", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    await getDb().agentCredential.createMany({ data: [
      { teamId: team.id, name: "LD_PRELOAD", encryptedValue: encryptSecret(library), last4: "l.so" },
      { teamId: team.id, name: "OPENAI_API_KEY", encryptedValue: encryptSecret("sk-test-1234"), last4: "1234" },
    ] });
    expect(await credentialsForRun(team.id, ["LD_PRELOAD", "OPENAI_API_KEY"])).toEqual({ OPENAI_API_KEY: "sk-test-1234" });
  });

  it("is filtered by name, keeping everything else", () => {
    expect(launcherEnvironment({ LD_AUDIT: "x", LD_DEBUG_OUTPUT: "/x", MALLOC_TRACE: "/x", GCONV_PATH: "/x", TZDIR: "/x", NLSPATH: "/x", HOME: "/h", LDAP_URI: "ldap://x", OLD_PRELOAD: "y" }))
      .toEqual({ HOME: "/h", LDAP_URI: "ldap://x", OLD_PRELOAD: "y" });
  });
});
