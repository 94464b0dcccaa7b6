import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git, gitCheck, GitError } from "@/lib/git/run";
import { commitFiles, makeSandbox } from "@/lib/git/testing";
import { fillPool } from "@/lib/git/worktree-pool-fill";
import { runIgnoringVanished, shareWithSandboxGroup } from "@/lib/sandbox/ownership";
import { BACKGROUND_NICE, spawnerRun, useSpawner } from "@/lib/spawner";

const PATH = "/usr/local/bin:/usr/bin:/bin";
const run = async (command: string, args: string[], env: Record<string, string> = { PATH }) => {
  const exit = await spawnerRun(command, args, { env });
  if (!exit || "error" in exit) throw new Error(`not run: ${JSON.stringify(exit)}`);
  return exit;
};
/** A process's nice value, from /proc/<pid>/stat (field 19). */
const niceOf = (stat: string) => Number(stat.split(") ")[1].split(" ")[16]);
const isAlive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe("the spawner: a worker's short commands started by a small process of its own", () => {
  it("is used only once a process opts in", () => {
    expect(spawnerRun("true", [], { env: { PATH } })).toBeNull();
  });

  it("starts each command from itself, not from this process, with only the environment the command is sent", async () => {
    useSpawner();
    const exit = await run("/bin/sh", ["-c", 'echo "$PPID"; env'], { PATH, ONLY: "this" });
    const [parent, ...env] = exit.stdout.trim().split("\n");
    const spawnerPid = Number(parent);
    expect(spawnerPid).not.toBe(process.pid);
    expect(readFileSync(`/proc/${spawnerPid}/cmdline`, "utf8")).toContain("bin/spawner.mjs");
    // Its own parent is this process, and it holds nothing of this process's environment.
    expect(readFileSync(`/proc/${spawnerPid}/stat`, "utf8").split(") ")[1].split(" ")[1]).toBe(String(process.pid));
    // (Node's own IPC channel's variables only.)
    expect(readFileSync(`/proc/${spawnerPid}/environ`, "utf8").split("\0").filter(Boolean).map((v) => v.split("=")[0]).sort()).toEqual(["NODE_CHANNEL_FD", "NODE_CHANNEL_SERIALIZATION_MODE"]);
    // The shell adds its own PWD, SHLVL and _.
    expect(env.filter((l) => !/^(PWD|SHLVL|_)=/.test(l)).sort()).toEqual(["ONLY=this", `PATH=${PATH}`]);
    // Exit codes, signals, stderr and a command that cannot be started.
    expect(await run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])).toEqual({ id: expect.any(Number), code: 3, signal: null, stdout: "out\n", stderr: "err\n" });
    expect(await run("/bin/sh", ["-c", "kill -TERM $$"])).toMatchObject({ code: null, signal: "SIGTERM" });
    expect(await spawnerRun("/no/such/command", [], { env: { PATH } })).toEqual({ id: expect.any(Number), error: expect.stringContaining("ENOENT") });
  });

  it("answers git as git started here would: output, exit codes and errors", async () => {
    useSpawner();
    const { repo } = await makeSandbox();
    const sha = await commitFiles(repo, { "a.txt": "a" }, "add a");
    expect(await git(repo, ["rev-parse", "HEAD"])).toBe(`${sha}\n`);
    expect(await gitCheck(repo, ["rev-parse", "--verify", "--quiet", "refs/heads/nope"])).toBe(false);
    const failed = await git(repo, ["checkout", "no-such-branch"]).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(GitError);
    expect((failed as GitError).exitCode).toBe(1);
    expect((failed as GitError).stderr).toContain("did not match any file(s) known to git");
    const missing = await git(`${repo}/no-such-folder`, ["status"]).catch((e: unknown) => e);
    expect((missing as GitError).exitCode).toBe(null);
  });

  it("runs the sandbox's share: vanished files are no failure, another complaint is, named", async () => {
    useSpawner();
    const user = { uid: process.getuid!(), gid: process.getgid!() };
    const dir = await mkdtemp(join(tmpdir(), "rm-spawner-share-"));
    await writeFile(join(dir, "f"), "x", { mode: 0o444 });
    await shareWithSandboxGroup([dir], user);
    expect((await stat(join(dir, "f"))).mode & 0o060).toBe(0o060);
    await expect(runIgnoringVanished("chgrp", ["-R", String(user.gid), dir, join(dir, "gone")])).resolves.toBeUndefined();
    await expect(runIgnoringVanished("chgrp", ["-R", "no-such-group-here", dir, join(dir, "gone")])).rejects.toThrow(/chgrp failed \(exit 1\): .*invalid group/);
    await rm(dir, { recursive: true, force: true });
  });

  it("starts work off every run's path niced, by a spawner of its own: a worktree pool's checkouts and their share", async () => {
    useSpawner();
    const own = niceOf(readFileSync("/proc/self/stat", "utf8"));
    const statOf = async (background: boolean) => (await spawnerRun("/bin/sh", ["-c", "cat /proc/$$/stat"], { env: { PATH }, background }))!;
    const [fore, back] = await Promise.all([statOf(false), statOf(true)]);
    if ("error" in fore || "error" in back) throw new Error("not run");
    expect(niceOf(fore.stdout)).toBe(own);
    expect(niceOf(back.stdout)).toBe(own + BACKGROUND_NICE);
    // Every git a pool's fill starts, and its preparation's share, run niced: a git first on the
    // PATH notes its nice value before it hands over to the real one.
    const { repo, worktrees } = await makeSandbox();
    const shim = await mkdtemp(join(tmpdir(), "rm-spawner-shim-"));
    const noted = join(shim, "noted");
    await writeFile(join(shim, "git"), `#!/bin/sh\nawk '{ print $19 }' /proc/$$/stat >> ${noted}\necho "$*" >> ${noted}.args\nexec /usr/bin/git "$@"\n`);
    await chmod(join(shim, "git"), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${shim}:${path}`;
    try {
      const user = { uid: process.getuid!(), gid: process.getgid!() };
      await fillPool({ repoPath: repo, pool: join(worktrees, ".pool"), baseBranch: "main", size: 2,
        prepare: { tag: "t", run: async (at) => {
          await shareWithSandboxGroup([at], user, { background: true });
          await writeFile(join(shim, "share"), (await statOf(true) as { stdout: string }).stdout);
        } } });
      await git(repo, ["status", "--short"]);
    } finally {
      process.env.PATH = path;
    }
    const nices = (await readFile(noted, "utf8")).trim().split("\n").map(Number);
    const args = (await readFile(`${noted}.args`, "utf8")).trim().split("\n");
    // The fill's worktree adds (with their config check) niced; the status asked afterwards not.
    const added = args.flatMap((a, i) => (a.includes("worktree add") ? [nices[i]] : []));
    expect(added).toHaveLength(2);
    expect(added.every((n) => n === own + BACKGROUND_NICE)).toBe(true);
    expect(nices.at(-1)).toBe(own);
    expect(niceOf(await readFile(join(shim, "share"), "utf8"))).toBe(own + BACKGROUND_NICE);
    await rm(shim, { recursive: true, force: true });
  });

  it("fails what a spawner that died was asked, and starts another for the next command", async () => {
    useSpawner();
    const first = Number((await run("/bin/sh", ["-c", 'echo "$PPID"'])).stdout);
    const asked = spawnerRun("/bin/sh", ["-c", "sleep 30"], { env: { PATH } })!;
    process.kill(first, "SIGKILL");
    expect(await asked).toEqual({ error: "the spawner exited (SIGKILL)" });
    const second = Number((await run("/bin/sh", ["-c", 'echo "$PPID"'])).stdout);
    expect(second).not.toBe(first);
    expect(isAlive(second)).toBe(true);
  });

  it("keeps no process alive once idle, and goes when the process that started it goes", async () => {
    const script = `import { spawnerRun, useSpawner } from "./lib/spawner.ts";
      useSpawner();
      const exit = await spawnerRun("/bin/sh", ["-c", 'echo "$PPID"'], { env: { PATH: "/usr/bin:/bin" } });
      console.log(exit.stdout.trim());`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c) => { out += c; });
    // It exits by itself: the idle spawner holds its event loop open no more than a finished command would.
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).toBe(0);
    const spawnerPid = Number(out.trim());
    expect(spawnerPid).toBeGreaterThan(0);
    for (let i = 0; i < 200 && isAlive(spawnerPid) && existsSync(`/proc/${spawnerPid}/cmdline`) && readFileSync(`/proc/${spawnerPid}/cmdline`, "utf8").includes("spawner"); i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(existsSync(`/proc/${spawnerPid}/cmdline`) && readFileSync(`/proc/${spawnerPid}/cmdline`, "utf8").includes("spawner")).toBe(false);
  });
});
