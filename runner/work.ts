import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { requireAdapter } from "@/lib/agents/registry";
import { runAgent } from "@/lib/agents/run";
import { exitVerdict } from "@/lib/agents/exit-verdict";
import { isCliModel, isSessionId } from "@/lib/agents/session-id";
import { commitAll, git, gitCheck, headSha } from "@/lib/git";
import { authEnv } from "@/lib/git/push";
import { supervisedAdapter } from "@/lib/runs/watchdog";
import { RunGuard, type RunLimits } from "@/lib/runs/guard";
import { refusal } from "@/lib/spend/ceilings";
import type { RunnerApi } from "./api";
import { LogStream } from "./log-stream";
import { LogMask, runLogSecrets } from "@/lib/runs/log-mask";
import { openRunnerSession, wireRunnerMcp, type SandboxMode } from "./sandbox";

/** The run part of a trigger, as the server sends it (lib/runners/trigger.ts). */
export interface RunWork {
  id: string;
  /** "lead": a conversation run (a mention, a worker's finished task); it answers, it commits nothing. */
  kind?: string;
  promptId: string | null;
  prompt: string;
  project: { id: string; name: string };
  repoUrl: string | null;
  /** For a GitHub repository: the credential its fetch and push use (an HTTP header via the environment). */
  gitToken?: string | null;
  /** Set when the project's repository is local to the server: its runner API path for bundles. */
  bundlePath: string | null;
  baseBranch: string;
  /** The base's commit, for a repository local to the server: a runner that has it needs no bundle. */
  baseSha?: string | null;
  branch: string;
  adapter: string;
  model: string | null;
  commandTemplate: string | null;
  extraArgs: string[];
  /** Absent from a server older than the setting: the adapter's default. */
  permissionMode?: string | null;
  completionSignal: string | null;
  maxRunDurationMs: number;
  /** The run's ceilings (tokens, cost, tool calls, turns) and loop limits, enforced here. */
  limits?: RunLimits;
  token: string;
  heartbeatMs: number;
}

export interface WorkOptions {
  api: RunnerApi;
  url: string;
  workDir: string;
  sandbox: SandboxMode;
  /** Variables of the runner's own environment its agents may see (e.g. ANTHROPIC_API_KEY). */
  passEnv: string[];
  say: (line: string) => void;
  signal: AbortSignal;
}

/** What the run used so far and the CLI's session, sent with each heartbeat and the completion report. */
type Used = { costUsd?: number; inputTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number; outputTokens?: number; sessionId?: string; model?: string };

type Outcome = { status: "succeeded" | "failed" | "timed_out" | "cancelled"; exitCode: number | null; signal: string | null; error?: string; summary?: string; commitSha?: string | null; failureLog?: string; retry?: boolean } & Used;

const BASE_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ", "USER", "SHELL", "TMPDIR"];

/** The runner's own variables its agent gets: the base ones and those passed with --pass-env. */
function agentBaseEnv(opts: WorkOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...opts.passEnv]) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return env;
}

// The runner's own copy of the project, fetched before each run; one worktree per run. The
// repository's address is passed on each fetch and push, never kept in its config: git here
// follows no remote a repository's config names (a planted one could redirect a push).
// A repository local to the server comes as a git bundle of the base (and the run's branch on a
// retry); fetching from the bundle file is the same as fetching from the repository.
// Runs of one project on this runner share its copy: their fetches and ref updates (refs/remotes/
// origin/*) and the worktrees made from them go one at a time. Side by side, one run's fetch found a
// ref another had just moved ("cannot lock ref … is at … but expected …"), and a base set for one
// run could be checked out by the other.
const repoTurns = new Map<string, Promise<void>>();

function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const mine = (repoTurns.get(key) ?? Promise.resolve()).then(work);
  const done = mine.then(() => {}, () => {});
  repoTurns.set(key, done);
  void done.then(() => { if (repoTurns.get(key) === done) repoTurns.delete(key); });
  return mine;
}

function prepareWorktree(work: RunWork, opts: WorkOptions): Promise<{ path: string; repo: string }> {
  if (!work.repoUrl && !work.bundlePath) return Promise.reject(new Error("the project has no repository the runner can fetch"));
  const repo = join(opts.workDir, "repos", work.project.id);
  return inTurn(repo, () => prepareWorktreeInTurn(work, opts, repo));
}

async function prepareWorktreeInTurn(work: RunWork, opts: WorkOptions, repo: string): Promise<{ path: string; repo: string }> {
  if (!existsSync(repo)) {
    mkdirSync(repo, { recursive: true });
    await git(repo, ["init", "--quiet"]);
  }
  // The usual case on a busy runner: it already holds the base the server names (its last
  // bundle had it), so the base's ref is set here and no bundle is asked for, which saves a
  // round trip, a bundle made on the server and a fetch: most of the time to the agent's start.
  // The server names no base for a retry that continues its branch: that one is fetched.
  let pushed = false;
  if (!work.repoUrl && work.baseSha && (await git(repo, ["update-ref", `refs/remotes/origin/${work.baseBranch}`, work.baseSha]).then(() => true, () => false))) {
    // A branch of that name the runner saw before is not the server's: it is not continued.
    await git(repo, ["update-ref", "-d", `refs/remotes/origin/${work.branch}`]);
  } else {
    let source = work.repoUrl;
    if (!source) {
      source = join(opts.workDir, "bundles", `${work.id}-base.bundle`);
      mkdirSync(dirname(source), { recursive: true });
      await opts.api.bundle("GET", work.bundlePath!, source);
    }
    // Only this run's refs are fetched from a bundle; a URL's fetch prunes what its remote dropped.
    await git(repo, ["fetch", "--quiet", ...(work.repoUrl ? ["--prune"] : []), source, "+refs/heads/*:refs/remotes/origin/*"], remoteEnv(work));
    if (!work.repoUrl) rmSync(source, { force: true });
    // A retry continues the branch an earlier attempt pushed.
    pushed = await gitCheck(repo, ["rev-parse", "--verify", "--quiet", `refs/remotes/origin/${work.branch}`]);
  }
  const path = join(opts.workDir, "worktrees", work.id);
  await git(repo, ["worktree", "add", "--quiet", "-B", work.branch, path, pushed ? `origin/${work.branch}` : `origin/${work.baseBranch}`]);
  return { path, repo };
}

/** The run's credential for its repository's URL, as git's HTTP header: never in argv or a config file. */
const remoteEnv = (work: RunWork) => (work.repoUrl && work.gitToken ? authEnv({ url: work.repoUrl, token: work.gitToken }) : {});

/** Whether the server's copy of `ref` (as last fetched) already holds HEAD: a retry that added nothing. */
async function serverHas(path: string, ref: string): Promise<boolean> {
  if (!(await gitCheck(path, ["rev-parse", "--verify", "--quiet", ref]))) return false;
  return gitCheck(path, ["merge-base", "--is-ancestor", "HEAD", ref]);
}

/** Runs one remote run end to end: worktree, agent (streamed), commit, push, completion report. */
export async function workOnRun(work: RunWork, opts: WorkOptions): Promise<Outcome> {
  const { api, say } = opts;
  const abort = new AbortController();
  const stop = (reason: string) => { if (!abort.signal.aborted) abort.abort(reason); };
  const onShutdown = () => stop(String(opts.signal.reason ?? "runner shut down"));
  opts.signal.addEventListener("abort", onShutdown, { once: true });
  const log = new LogStream(api, work.id, () => stop("the server took the run back"), new LogMask().add(runLogSecrets({ env: agentBaseEnv(opts), passed: opts.passEnv, token: work.token })));
  const used: Used = {};
  const beat = setInterval(() => {
    void api.call("POST", `/api/runner/runs/${work.id}/heartbeat`, used).then((r) => { if (r.status === 409) stop("lease lost"); }, () => {});
  }, work.heartbeatMs);
  let outcome: Outcome;
  let worktree: { path: string; repo: string } | null = null;
  try {
    worktree = await prepareWorktree(work, opts);
    outcome = await runAndCommit(work, worktree.path, opts, log, used, abort.signal);
  } catch (err) {
    outcome = { status: "failed", exitCode: null, signal: null, error: `runner: ${(err as Error).message}`.slice(0, 2000) };
  } finally {
    opts.signal.removeEventListener("abort", onShutdown);
  }
  if (abort.signal.aborted && outcome.status !== "succeeded") outcome = { ...outcome, status: "cancelled", error: String(abort.signal.reason) };
  log.push(`[runner] ${outcome.status}${outcome.error ? `: ${outcome.error}` : ""}`);
  await log.flush();
  clearInterval(beat);
  const report = await api.call("POST", `/api/runner/runs/${work.id}/complete`, { ...outcome, ...used });
  say(`run ${work.id}: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ""}${outcome.commitSha ? ` (${outcome.commitSha.slice(0, 7)} ${work.repoUrl ? "pushed to" : "handed back as a bundle on"} ${work.branch})` : ""}; report ${report.status === 200 ? ((report.body as { applied: boolean }).applied ? "applied" : "recorded (the run had already ended)") : `refused (${report.status})`}`);
  if (worktree) {
    await git(worktree.repo, ["worktree", "remove", "--force", worktree.path]).catch(() => rmSync(worktree!.path, { recursive: true, force: true }));
  }
  return outcome;
}

async function runAndCommit(work: RunWork, path: string, opts: WorkOptions, log: LogStream, used: Used, signal: AbortSignal): Promise<Outcome> {
  const baseSha = work.baseSha ?? (await git(path, ["rev-parse", `origin/${work.baseBranch}`])).trim();
  const refused = work.limits ? refusal(work.limits.ceilings, work.adapter) : null;
  if (refused) return { status: "failed", exitCode: null, signal: null, error: refused, failureLog: refused, retry: false };
  // The same guard as a worker's: the first ceiling crossed, or a loop, stops the agent at once.
  const guard = work.limits ? new RunGuard(work.limits, work.model ?? undefined, (reason) => log.push(`[ringmaster] ${reason}`)) : null;
  let sawSignal = !work.completionSignal;
  const session = await openRunnerSession(opts.sandbox, path, { url: opts.url, token: work.token });
  let exit;
  try {
    const mcp = await wireRunnerMcp(session, work.adapter);
    log.push(`[runner] ${work.adapter} agent on ${work.branch}, ${session.label}${mcp.wired ? ", its MCP config pointed at the server's /api/mcp" : mcp.unwired ? `, no MCP (${mcp.unwired})` : ""}`);
    const env = agentBaseEnv(opts);
    Object.assign(env, { RINGMASTER_URL: opts.url, RINGMASTER_TOKEN: work.token, RINGMASTER_RUN_ID: work.id, RINGMASTER_PROJECT_ID: work.project.id, ...(work.promptId ? { RINGMASTER_PROMPT_ID: work.promptId } : {}), ...mcp.env });
    exit = await runAgent({
      adapter: supervisedAdapter(requireAdapter(work.adapter), session, process.execPath),
      context: { prompt: work.prompt, model: work.model ?? undefined, commandTemplate: work.commandTemplate ?? undefined, worktree: path, extraArgs: [...mcp.args, ...work.extraArgs], permissionMode: work.permissionMode ?? undefined },
      env, launch: session.launch, signal, stopNow: guard?.signal, maxDurationMs: work.maxRunDurationMs,
      onSpawn: (pid) => opts.say(`run ${work.id}: agent started (pid ${pid})`),
      onLine: ({ line, stream }) => {
        log.push(stream === "stderr" ? `[stderr] ${line}` : line);
        if (work.completionSignal && line.includes(work.completionSignal)) sawSignal = true;
      },
      onEvent: (e) => {
        guard?.observe(e);
        // What the guard counted (priced with the team's table) is what the heartbeat reports.
        const totals = guard?.totals;
        if (totals) {
          const { costUsd, inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens } = totals;
          Object.assign(used, { costUsd, inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens });
        } else if (e.type === "result") Object.assign(used, { costUsd: e.costUsd, inputTokens: e.inputTokens, cacheReadTokens: e.cacheReadTokens, outputTokens: e.outputTokens });
        // The first session id the CLI names is the run's; the server refuses one of a bad shape.
        if (e.type === "init" && e.sessionId && used.sessionId === undefined && isSessionId(e.sessionId)) used.sessionId = e.sessionId;
        // A profile that names no model runs the CLI's default: which one, from its init line or first model call.
        if ((e.type === "init" || e.type === "usage") && e.model && !work.model && used.model === undefined && isCliModel(e.model)) used.model = e.model;
      },
    });
  } finally {
    await session.close();
  }
  const base = { exitCode: exit.exitCode, signal: exit.signal, summary: exit.result?.summary?.slice(0, 20_000) };
  // A person decides whether a runaway is worth another try: no automatic retry.
  if (guard?.stopReason) return { ...base, status: "failed", error: guard.stopReason, retry: false };
  if (exit.timedOut) return { ...base, status: "timed_out", error: `exceeded the maximum duration of ${work.maxRunDurationMs} ms` };
  if (signal.aborted) return { ...base, status: "cancelled", error: String(signal.reason) };
  const verdict = exitVerdict(requireAdapter(work.adapter), exit);
  if (verdict) {
    if (verdict.note) log.push(`[runner] ${verdict.error}`);
    return { ...base, status: "failed", error: verdict.error };
  }
  if (!sawSignal) return { ...base, status: "failed", error: `completion signal "${work.completionSignal}" not printed` };
  if (work.kind === "lead") return { ...base, status: "succeeded", commitSha: null };
  const title = work.prompt.split("\n")[0].replace(/^#\s*/, "").replace(/^Prompt (\d+):\s*/, "feat(prompt-$1): ") || `run ${work.id}`;
  const committed = await commitAll(path, title, work.baseBranch);
  const head = committed ?? (await headSha(path));
  const commitSha = head !== baseSha ? head : null;
  if (commitSha && work.repoUrl) {
    await git(path, ["push", "--quiet", work.repoUrl, `HEAD:refs/heads/${work.branch}`], remoteEnv(work));
    log.push(`[runner] pushed ${commitSha.slice(0, 7)} to ${work.branch}`);
  } else if (commitSha && !(await serverHas(path, `refs/remotes/origin/${work.branch}`))) {
    // The branch's commits past what the server already has (its base, its branch's last head).
    const file = join(opts.workDir, "bundles", `${work.id}-run.bundle`);
    const known = (await git(path, ["for-each-ref", "--format=%(refname)", "refs/remotes/origin/"])).trim().split("\n").filter(Boolean);
    await git(path, ["bundle", "create", "--quiet", file, `refs/heads/${work.branch}`, ...known.map((r) => `^${r}`)]);
    try {
      await opts.api.bundle("POST", `/api/runner/runs/${work.id}/bundle`, file);
    } finally {
      rmSync(file, { force: true });
    }
    log.push(`[runner] handed back ${commitSha.slice(0, 7)} on ${work.branch} as a git bundle`);
  }
  return { ...base, status: "succeeded", commitSha };
}
