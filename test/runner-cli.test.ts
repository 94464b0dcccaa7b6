import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { closeRunnerWake } from "@/lib/runners/wake";
import { createBareProject } from "./helpers/runs";
import { runnerToken } from "./helpers/runners";
import { startRunnerApi } from "./helpers/runner-http";
import { waitUntil } from "./helpers/fixtures";

afterAll(closeRunnerWake);

const root = join(import.meta.dirname, "..");
const env = { PATH: process.env.PATH!, HOME: process.env.HOME! } as unknown as NodeJS.ProcessEnv;

/** `npx ringmaster …` as a person types it in a checkout (npx runs the package's own bin entry). */
function npx(args: string[], cwd = root) {
  const child = spawn("npx", ["--offline", "ringmaster", ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c: Buffer) => { output += c.toString(); });
  child.stderr.on("data", (c: Buffer) => { output += c.toString(); });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, exited, output: () => output.replace(/^npm warn .*\n/gm, "") };
}

describe("npx ringmaster", () => {
  it("lists its commands and exits 2 without one", async () => {
    const run = npx([]);
    expect(await run.exited).toBe(2);
    expect(run.output()).toBe("usage: npx ringmaster <command> [options]\n\ncommands:\n  runner   run agents on this machine for a Ringmaster server (--url … --token …)\n");
  });

  it("names an unknown command", async () => {
    const run = npx(["runnr"]);
    expect(await run.exited).toBe(2);
    expect(run.output().split("\n")[0]).toBe('unknown command "runnr"');
  });

  it.each([
    [[], "--url is required"],
    [["--url", "http://127.0.0.1:9"], "--token (or RINGMASTER_RUNNER_TOKEN) is required"],
    [["--url", "http://127.0.0.1:9", "--token", "t", "--role", "boss"], "--role must be worker or lead"],
    [["--url", "http://127.0.0.1:9", "--token", "t", "--max-concurrent", "0"], "--max-concurrent must be a whole number from 1 to 32"],
  ])("runner %j: exits 2 saying %s", async (args, message) => {
    const run = npx(["runner", ...args]);
    expect(await run.exited).toBe(2);
    expect(run.output().split("\n")[0]).toBe(message);
  });

  it("runner starts from any folder, registers with the server, and on SIGTERM goes offline and exits 143", async () => {
    const { team } = await createBareProject();
    const api = await startRunnerApi();
    try {
      const token = await runnerToken(team.id);
      const workDir = mkdtempSync(join(tmpdir(), "rm-cli-"));
      // Started through the bin file from elsewhere: its own tsconfig still resolves the imports.
      const child = spawn(process.execPath, [join(root, "bin", "ringmaster.mjs"), "runner", "--url", api.url, "--token", token, "--name", "cli-box", "--work-dir", workDir], { cwd: tmpdir(), env, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (c: Buffer) => { output += c.toString(); });
      child.stderr.on("data", (c: Buffer) => { output += c.toString(); });
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      await waitUntil("the runner to register", async () => output.includes('registered as "cli-box"'));
      expect(await getDb().agent.findFirstOrThrow({ where: { teamId: team.id } })).toMatchObject({ name: "cli-box", status: "idle" });
      child.kill("SIGTERM");
      expect(await exited).toBe(143);
      expect(output).toContain("SIGTERM: stopping");
      expect((await getDb().agent.findFirstOrThrow({ where: { teamId: team.id } })).status).toBe("offline");
      expect(output).not.toContain(token);
    } finally {
      await api.stop();
    }
  });
});
