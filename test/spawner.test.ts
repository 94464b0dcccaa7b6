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
import { runAgentProcess, type OutputLine } from "@/lib/agents/process";
import { BACKGROUND_NICE, runCommand, startProcess, useSpawner } from "@/lib/spawner";

const PATH = "/usr/local/bin:/usr/bin:/bin";
const run = (command: string, args: string[], env: Record<string, string> = { PATH }) => runCommand(command, args, { env });
/** A process's nice value, from /proc/<pid>/stat (field 19). */
const niceOf = (stat: string) => Number(stat.split(") ")[1].split(" ")[16]);
const isAlive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe("the spawner: a worker's short commands started by a small process of its own", () => {
  it("is used only once a process opts in: before, commands and agents start from this process, alike", async () => {
    const here = await run("/bin/sh", ["-c", 'echo "$PPID"; env'], { PATH, ONLY: "this" });
    const [parent, ...env] = here.stdout.trim().split("\n");
    expect(Number(parent)).toBe(process.pid);
    expect(env.filter((l) => !/^(PWD|SHLVL|_)=/.test(l)).sort()).toEqual(["ONLY=this", `PATH=${PATH}`]);
    expect(await run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])).toEqual({ code: 3, signal: null, stdout: "out\n", stderr: "err\n" });
    expect(await run("/bin/sh", ["-c", "kill -TERM $$"])).toMatchObject({ code: null, signal: "SIGTERM" });
    await expect(run("/no/such/command", [])).rejects.toThrow(/ENOENT/);
    // A command that writes without end is stopped.
    expect(await run("/bin/sh", ["-c", "exec yes"])).toMatchObject({ code: null, signal: "SIGKILL" });
    // An agent: the leader of its own group, its prompt on stdin.
    const agent = await startProcess("/bin/sh", ["-c", 'echo "$PPID $(ps -o pgid= $$ | tr -d " ")"; cat'], { env: { PATH }, stdin: "the prompt" });
    let out = "";
    agent.stdout.on("data", (c: Buffer) => { out += c; });
    const closed = await new Promise<[number | null, string | null]>((resolve) => agent.once("close", (code, signal) => resolve([code, signal])));
    expect(closed).toEqual([0, null]);
    expect(out).toBe(`${process.pid} ${agent.pid}\nthe prompt`);
    await expect(startProcess("/no/such/agent", [], { env: { PATH } })).rejects.toThrow(/ENOENT/);
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
    expect(await run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])).toEqual({ code: 3, signal: null, stdout: "out\n", stderr: "err\n" });
    expect(await run("/bin/sh", ["-c", "kill -TERM $$"])).toMatchObject({ code: null, signal: "SIGTERM" });
    await expect(run("/no/such/command", [])).rejects.toThrow(/ENOENT/);
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
    const statOf = (background: boolean) => runCommand("/bin/sh", ["-c", "cat /proc/$$/stat"], { env: { PATH }, background });
    const [fore, back] = await Promise.all([statOf(false), statOf(true)]);
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
          await writeFile(join(shim, "share"), (await statOf(true)).stdout);
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

  describe("an agent started by the spawner", () => {
    const agent = async (script: string, more: Partial<Parameters<typeof runAgentProcess>[0]> = {}) => {
      const lines: OutputLine[] = [];
      let pid = 0;
      const result = await runAgentProcess({
        command: "/bin/sh", args: ["-c", script], cwd: tmpdir(), env: { PATH }, ...more,
        onLine: (l) => { lines.push(l); more.onLine?.(l); }, onSpawn: (p) => { pid = p; more.onSpawn?.(p); },
      });
      return { result, lines, pid, out: lines.filter((l) => l.stream === "stdout").map((l) => l.line), err: lines.filter((l) => l.stream === "stderr").map((l) => l.line) };
    };

    it("is the spawner's child, the leader of its own group, and reads its prompt on stdin; its output, exit and signal come back", async () => {
      useSpawner();
      const { result, out, err, pid } = await agent('echo "ppid $PPID pgid $(ps -o pgid= $$ | tr -d " ") pid $$"; read line; echo "got $line"; echo oops >&2; exit 4', { stdin: "the prompt\n" });
      const [, ppid, pgid, own] = /^ppid (\d+) pgid (\d+) pid (\d+)$/.exec(out[0])!;
      expect(Number(ppid)).not.toBe(process.pid);
      expect(Number(own)).toBe(pid);
      expect(Number(pgid)).toBe(pid);
      expect(out.slice(1)).toEqual(["got the prompt"]);
      expect(err).toEqual(["oops"]);
      expect(result).toMatchObject({ exitCode: 4, signal: null, timedOut: false, cancelled: false });
      expect((await agent("kill -KILL $$")).result).toMatchObject({ exitCode: null, signal: "SIGKILL" });
      // A command line for a shell (a profile's command template), started as one.
      const lines: OutputLine[] = [];
      const shelled = await runAgentProcess({ command: 'echo "in a shell: $((1 + 2))"', args: [], shell: true, cwd: tmpdir(), env: { PATH }, onLine: (l) => lines.push(l) });
      expect(shelled.exitCode).toBe(0);
      expect(lines.map((l) => l.line)).toEqual(["in a shell: 3"]);
    });

    it("loses no output of one that exits at once, nor of one that writes megabytes faster than they are taken", async () => {
      useSpawner();
      // Its replies (started, output, exit) may all come in one read of the channel: here this
      // process is busy until they have. Its exit is still seen, so what it left running in its
      // group (holding its output open) is killed and the run ends.
      for (let i = 0; i < 5; i++) {
        const running = agent(`sleep 30 & echo ${i}`);
        const until = Date.now() + 300;
        while (Date.now() < until) { /* busy: the spawner's replies wait in the channel */ }
        const { out, result } = await running;
        expect(out).toEqual([String(i)]);
        expect(result.exitCode).toBe(0);
      }
      // 8 MB in 100-byte lines on stdout, stderr before and after, to a reader that stalls now and
      // then (the spawner stops reading past a megabyte not taken): all of it, in order.
      let taken = 0;
      const slowly = () => { if (++taken % 5000 === 0) { const until = Date.now() + 20; while (Date.now() < until) { /* a slow reader */ } } };
      const { out, err, result } = await agent("echo first >&2; i=0; while [ $i -lt 80000 ]; do printf '%099d\\n' $i; i=$((i+1)); done; echo last >&2", { onLine: slowly });
      expect(result.exitCode).toBe(0);
      expect(out).toHaveLength(80000);
      expect(out[0]).toBe("0".repeat(99));
      expect(out[79999]).toBe(String(79999).padStart(99, "0"));
      expect(err).toEqual(["first", "last"]);
    }, 60_000);

    it("is stopped by a cancel, also one asked while it was starting, and a command that cannot start is refused", async () => {
      useSpawner();
      const early = new AbortController();
      const started = agent("sleep 30", { signal: early.signal, killGraceMs: 100 });
      early.abort();
      expect((await started).result).toMatchObject({ cancelled: true });
      const later = new AbortController();
      const running = agent("echo up; sleep 30", { signal: later.signal, killGraceMs: 100, onLine: () => later.abort() });
      const { result, pid } = await running;
      expect(result).toMatchObject({ cancelled: true, signal: "SIGTERM" });
      expect(isAlive(pid)).toBe(false);
      await expect(runAgentProcess({ command: "/no/such/agent", args: [], cwd: tmpdir(), env: { PATH }, onLine: () => {} })).rejects.toThrow(/cannot start \/no\/such\/agent in .*ENOENT/);
    });

    it("ends with the spawner's death, not hanging: its group is killed", async () => {
      useSpawner();
      let agentPid = 0;
      const running = agent("echo up; sleep 30", {
        onSpawn: (p) => { agentPid = p; },
        onLine: () => {
          const stat = readFileSync(`/proc/${agentPid}/stat`, "utf8");
          process.kill(Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]), "SIGKILL");
        },
      });
      const { result } = await running;
      expect(result).toMatchObject({ exitCode: null, signal: null });
      for (let i = 0; i < 100 && isAlive(agentPid); i++) await new Promise((r) => setTimeout(r, 20));
      expect(isAlive(agentPid)).toBe(false);
    });
  });

  it("fails what a spawner that died was asked, and starts another for the next command", async () => {
    useSpawner();
    const first = Number((await run("/bin/sh", ["-c", 'echo "$PPID"'])).stdout);
    const asked = run("/bin/sh", ["-c", "sleep 30"]);
    process.kill(first, "SIGKILL");
    await expect(asked).rejects.toThrow("the spawner exited (SIGKILL)");
    const second = Number((await run("/bin/sh", ["-c", 'echo "$PPID"'])).stdout);
    expect(second).not.toBe(first);
    expect(isAlive(second)).toBe(true);
  });

  it("keeps no process alive once idle, and goes when the process that started it goes", async () => {
    const script = `import { runCommand, useSpawner } from "./lib/spawner.ts";
      useSpawner();
      const exit = await runCommand("/bin/sh", ["-c", 'echo "$PPID"'], { env: { PATH: "/usr/bin:/bin" } });
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
