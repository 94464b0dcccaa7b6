import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { runAgent, type AgentRunOutcome } from "@/lib/agents/run";
import type { AgentAdapter, AgentEvent, BuildContext } from "@/lib/agents/types";
import { CLI_CACHE } from "./agent-cli-cache";
import { waitUntil } from "./fixtures";

/** A fresh git repository for a real CLI to work in, as a run's worktree is. */
export async function gitWorktree(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "rm-cli-"));
  execFileSync("git", ["init", "-q", "-b", "main", dir]);
  return dir;
}

/** The scrubbed environment a run gets: the CLI's folder first on PATH, a home of its own. */
export async function cliEnv(bin: string, extra: Record<string, string>): Promise<Record<string, string>> {
  const home = await mkdtemp(join(tmpdir(), "rm-cli-home-"));
  return { PATH: [bin, dirname(process.execPath), "/usr/bin", "/bin"].join(":"), HOME: home, ...extra };
}

/** The config JSON of opencode or of its fork Kilo Code with one OpenAI-compatible provider, `double`, at `url`. */
export function opencodeFamilyConfig(url: string): string {
  const provider = { npm: "@ai-sdk/openai-compatible", name: "Double", options: { baseURL: url, apiKey: "sk-test" }, models: { "gpt-5": { name: "GPT-5" } } };
  return JSON.stringify({ provider: { double: provider }, small_model: "double/gpt-5" });
}

/**
 * The environment of opencode or of its fork Kilo Code (`prefix` OPENCODE or KILO) against a Chat
 * Completions double, as a profile would configure it: an OpenAI-compatible provider in
 * <prefix>_CONFIG_CONTENT; no model list fetch or update check. Each installs the provider's SDK
 * package into its cache on first use: one cache for all its runs.
 */
export async function opencodeFamilyEnv(prefix: "OPENCODE" | "KILO", bin: string, doubleUrl: string, extra: Record<string, string> = {}) {
  return cliEnv(bin, {
    [`${prefix}_CONFIG_CONTENT`]: opencodeFamilyConfig(doubleUrl),
    XDG_CACHE_HOME: join(CLI_CACHE, `${prefix.toLowerCase()}-cache`), [`${prefix}_DISABLE_MODELS_FETCH`]: "1", [`${prefix}_DISABLE_AUTOUPDATE`]: "1",
    ...extra,
  });
}

/** Runs `adapter` through Ringmaster's runner, collecting its events and the pid it started. */
export async function runCli(adapter: AgentAdapter, context: BuildContext, env: Record<string, string>, signal?: AbortSignal) {
  const events: AgentEvent[] = [];
  const logs: string[] = [];
  let pid = 0;
  const outcome: AgentRunOutcome = await runAgent({
    adapter, context, env, signal, killGraceMs: 1_000, maxDurationMs: 90_000,
    onSpawn: (p) => { pid = p; },
    onEvent: (e) => events.push(e),
    onLine: (l) => l.stream === "stderr" && logs.push(l.line),
  });
  return { outcome, events, logs, pid };
}

/** The processes still in process group `pgid` (Linux /proc); a zombie counts as gone. */
export function groupMembers(pgid: number): number[] {
  const alive: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1].split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") alive.push(Number(name));
    } catch {
      // gone while we looked
    }
  }
  return alive;
}

type DoubleState = { requests: string[]; prompts: string[]; hang: boolean };
type CliRun = (prompt: string, signal?: AbortSignal) => Promise<{ outcome: AgentRunOutcome; pid: number }>;

/**
 * The cases every real-CLI conformance test shares, against a model API double's `state`:
 * a 150 KB CJK prompt reaches the model whole (on stdin, never one argument), and a cancelled
 * run leaves no process of its group.
 */
export function sharedConformanceCases(cli: string, run: CliRun, state: DoubleState) {
  it("takes a 150 KB CJK prompt whole on stdin", async () => {
    const prompt = `Write hello.txt ${"漢字".repeat(25_000)}`;
    const { outcome } = await run(prompt);
    expect(outcome.exitCode).toBe(0);
    expect(state.prompts.some((text) => text.includes(prompt))).toBe(true);
  });

  it("on cancel, its whole process group is gone within a second", async () => {
    state.hang = true;
    const abort = new AbortController();
    const before = state.requests.length;
    const running = run("Write hello.txt", abort.signal);
    // A loaded machine can take a while to start the CLI: a generous deadline.
    await waitUntil(`${cli} to call the model`, async () => state.requests.length > before, 120_000);
    abort.abort("cancelled by a person");
    const { outcome, pid } = await running;
    state.hang = false;
    expect(outcome.cancelled).toBe(true);
    expect(groupMembers(pid)).toEqual([]);
  });
}
