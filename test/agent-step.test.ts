// What a run's agent step decides from the CLI's output and exit, and what it keeps on the run
// while the agent works. The "CLI" is a shell script printing Claude Code's stream-json lines
// (the real format, parsed by the real adapter), so each line and exit is the test's to choose.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { claudeAdapter } from "@/lib/agents/claude";
import type { AgentAdapter } from "@/lib/agents/types";
import { isAlive } from "@/lib/agents/testing";
import { captureLogs } from "@/lib/log-capture";
import { runAgentAndVerify } from "@/lib/runs/agent-step";
import { RunLogSink } from "@/lib/runs/log-sink";
import { DEFAULT_LOOP_LIMITS } from "@/lib/spend/loop-detector";
import type { Ceilings } from "@/lib/spend/ceilings";
import { waitUntil } from "./helpers/fixtures";
import { liveRun } from "./helpers/runs";

const NO_CEILINGS: Ceilings = { maxTokens: null, maxCostUsd: null, maxToolCalls: null, maxTurns: null };
const SESSION = "5f0c3a52-8f1e-4c55-9d43-0b7a1e2c9a10";
const LATER_SESSION = "9a1b2c3d-0000-4000-8000-000000000000";

const line = (o: unknown) => `printf '%s\\n' '${JSON.stringify(o).replaceAll("'", `'\\''`)}'`;
const init = (model: string | undefined, sessionId: string) => line({ type: "system", subtype: "init", ...(model ? { model } : {}), session_id: sessionId });
const assistant = (id: string, text: string, usage = { input_tokens: 10, output_tokens: 5 }) =>
  line({ type: "assistant", message: { id, model: "claude-from-usage", usage, content: [{ type: "text", text }] } });
const toolUse = (id: string, name: string) => line({ type: "assistant", message: { id, content: [{ type: "tool_use", id: `t-${id}`, name, input: { command: "ls" } }] } });
const result = (extra: Record<string, unknown> = {}) =>
  line({ type: "result", subtype: "success", is_error: false, result: "done", total_cost_usd: 0.01, usage: { input_tokens: 10, output_tokens: 5 }, ...extra });

/** The claude adapter's parser behind a script of our own. */
const scripted = (script: string): AgentAdapter => ({ ...claudeAdapter, build: () => ({ command: "/bin/sh", args: ["-c", script] }) });

async function step(script: string, opts: {
  completionSignal?: string; verifyCommand?: string; maxRunDurationMs?: number; ceilings?: Partial<Ceilings>;
  model?: string; signal?: AbortSignal; onSpawn?: () => void;
  /** Runs beside the agent, which waits for a file `go` in its worktree when its script says so. */
  whileRunning?: (at: { runId: string; worktree: string }) => Promise<void>;
  beforeStart?: (projectId: string) => Promise<unknown>;
} = {}) {
  const { run, project, team, profile } = await liveRun();
  await opts.beforeStart?.(project.id);
  const worktree = await mkdtemp(join(tmpdir(), "rm-agent-step-"));
  const log = new RunLogSink(run.id);
  const stepping = runAgentAndVerify({
    runId: run.id,
    ledger: { runId: run.id, teamId: team.id, projectId: project.id, agentProfileId: profile.id, queuedById: null },
    profile: { completionSignal: opts.completionSignal ?? null },
    settings: { maxRunDurationMs: opts.maxRunDurationMs ?? 60_000, verifyCommand: opts.verifyCommand ?? null },
    limits: { ceilings: { ...NO_CEILINGS, ...opts.ceilings }, loops: DEFAULT_LOOP_LIMITS },
    adapter: scripted(script),
    context: { prompt: "work", worktree, ...(opts.model ? { model: opts.model } : {}) },
    // As agentEnvironment gives it: the run's id marks what the agent starts.
    env: { PATH: process.env.PATH!, RINGMASTER_RUN_ID: run.id },
    launch: (spec) => spec,
    signal: opts.signal ?? new AbortController().signal,
    log,
    onSpawn: opts.onSpawn,
  });
  await opts.whileRunning?.({ runId: run.id, worktree });
  const outcome = await stepping;
  await log.flush();
  const lines = (await getDb().runLog.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } })).flatMap((l) => l.content.split("\n"));
  return { outcome, lines, run, worktree };
}

const runRow = (id: string) => getDb().run.findUniqueOrThrow({ where: { id } });
// At most 10 s: an agent whose test failed before it said go does not outlive it for long.
const WAIT_FOR_GO = "i=0; while [ ! -f go ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i+1)); done";

describe("runAgentAndVerify", () => {
  it("keeps stdout lines as written and marks stderr's, records the pid, the CLI's model and first valid session id, the last result's time and the usage so far", async () => {
    let spawned = 0;
    // Another live run: nothing of this one's is written on it.
    const bystander = await liveRun();
    // The model's and the session's writes are slow: the step waits for them all the same.
    await getDb().$executeRawUnsafe(`CREATE OR REPLACE FUNCTION slow_run_identity() RETURNS trigger AS $$
      BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$ LANGUAGE plpgsql`);
    await getDb().$executeRawUnsafe(`CREATE TRIGGER slow_run_identity BEFORE UPDATE OF model, "sessionId" ON "Run" FOR EACH ROW EXECUTE FUNCTION slow_run_identity()`);
    const { outcome, lines, run } = await step([
      // Apart, so that a write the first line wrongly made would land before the second's.
      init(undefined, "not a session id"), "sleep 0.2", init("claude-from-init", SESSION), init("claude-later", LATER_SESSION),
      "echo 'something went sideways' >&2", assistant("m1", "hi"), result(),
    ].join("\n"), { onSpawn: () => { spawned++; } });
    expect(outcome).toMatchObject({ status: "succeeded", exitCode: 0, signal: null, summary: "done", inputTokens: 10, outputTokens: 5 });
    expect(spawned).toBe(1);
    expect(lines).toContain("[stderr] something went sideways");
    expect(lines.filter((l) => l.startsWith('{"type":"assistant"'))).toHaveLength(1);
    // The model and the session are on the row when the step returns.
    expect(await runRow(run.id)).toMatchObject({ model: "claude-from-init", sessionId: SESSION });
    await getDb().$executeRawUnsafe(`DROP TRIGGER slow_run_identity ON "Run"`);
    await waitUntil("the run's row to have what the agent said", async () => {
      const row = await runRow(run.id);
      return row.pid !== null && row.lastResultAt !== null && row.inputTokens !== null;
    });
    const row = await runRow(run.id);
    expect(row).toMatchObject({ model: "claude-from-init", sessionId: SESSION, inputTokens: 10, outputTokens: 5 });
    expect(row.pid).toEqual(expect.any(Number));
    expect(await runRow(bystander.run.id)).toMatchObject({ model: null, sessionId: null, pid: null, inputTokens: null, lastResultAt: null });
  });

  it("keeps the usage on the run's row while the agent works, at most one write a second, and the result's figures once it reports them", async () => {
    const bystander = await liveRun();
    const usageOnly = (id: string, input: number, output: number) => line({ type: "assistant", message: { id, usage: { input_tokens: input, output_tokens: output }, content: [] } });
    const { outcome, run } = await step([
      // The second call 0.2 s after the first: within the second, and after the first's write.
      usageOnly("m1", 10, 5), "sleep 0.2", usageOnly("m2", 20, 10), "echo after-usage", WAIT_FOR_GO,
      result({ usage: { input_tokens: 70, output_tokens: 25 } }), "sleep 0.2",
    ].join("\n"), {
      whileRunning: async ({ runId, worktree }) => {
        try {
          await waitUntil("the first model call's usage on the row", async () => (await runRow(runId)).inputTokens !== null);
          // The second call came within the second: not written yet.
          expect(await runRow(runId)).toMatchObject({ inputTokens: 10, outputTokens: 5 });
          await new Promise((r) => setTimeout(r, 1100));
          expect(await runRow(runId)).toMatchObject({ inputTokens: 10, outputTokens: 5 });
        } finally {
          await writeFile(join(worktree, "go"), "");
        }
      },
    });
    expect(outcome).toMatchObject({ status: "succeeded", inputTokens: 70, outputTokens: 25 });
    // The result came more than a second after the last write: written at once, before the run completes.
    await waitUntil("the result's usage on the row", async () => (await runRow(run.id)).inputTokens === 70);
    expect(await runRow(bystander.run.id)).toMatchObject({ inputTokens: null, costUsd: null });
  });

  it("kills what the agent left running outside its process group once it ends (unsandboxed)", async () => {
    const { outcome, lines } = await step(["setsid sleep 300 > /dev/null 2>&1 < /dev/null & echo \"left $!\"", result()].join("\n"));
    expect(outcome.status).toBe("succeeded");
    const pid = Number(lines.find((l) => l.startsWith("left "))!.slice(5));
    await waitUntil("the detached process to be gone", async () => !isAlive(pid));
  });

  it("waits for the spend ledger before it returns, and a ledger write Postgres refused is said and tried again", async () => {
    const db = getDb();
    // The first write is refused (a sequence counts outside the refused transaction); later ones are slow.
    await db.$executeRawUnsafe(`CREATE SEQUENCE ledger_writes`);
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_first_ledger_write() RETURNS trigger AS $$
      BEGIN
        IF nextval('ledger_writes') = 1 THEN RAISE EXCEPTION 'ledger write refused by the test'; END IF;
        PERFORM pg_sleep(0.3);
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_first_ledger_write BEFORE INSERT ON "SpendEntry" FOR EACH ROW EXECUTE FUNCTION refuse_first_ledger_write()`);
    const logged = captureLogs("info");
    try {
      const { run } = await step([assistant("m1", "hi", { input_tokens: 100, output_tokens: 40 }), "sleep 0.3", assistant("m2", "more", { input_tokens: 1, output_tokens: 2 }), result()].join("\n"));
      const sum = await db.spendEntry.aggregate({ where: { runId: run.id }, _sum: { inputTokens: true, outputTokens: true } });
      expect(sum._sum).toEqual({ inputTokens: 101, outputTokens: 42 });
      expect(logged.filter((l) => l.name === "runs").map(({ level, msg, runId, err }) => ({ level, msg, runId, err }))).toEqual([{ level: 40, msg: "spend ledger write failed; retried with the next line", runId: run.id, err: expect.stringContaining("ledger write refused by the test") }]);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_first_ledger_write ON "SpendEntry"`);
    }
  });

  it("leaves the model alone when the profile names one, and takes it from a model call's usage when the init line names none", async () => {
    const named = await step([init("claude-from-init", SESSION), result()].join("\n"), { model: "profile-model" });
    expect((await runRow(named.run.id)).model).toBeNull();
    const fromUsage = await step([init(undefined, SESSION), assistant("m1", "hi"), result()].join("\n"));
    expect((await runRow(fromUsage.run.id)).model).toBe("claude-from-usage");
  });

  it("needs the completion signal, printed on either stream, when the profile sets one", async () => {
    const missing = await step([assistant("m1", "finished"), result()].join("\n"), { completionSignal: "ALL DONE" });
    expect(missing.outcome).toMatchObject({ status: "failed", error: 'completion signal "ALL DONE" not printed' });
    const onStderr = await step(["echo 'ALL DONE' >&2", result()].join("\n"), { completionSignal: "ALL DONE" });
    expect(onStderr.outcome.status).toBe("succeeded");
  });

  it("fails a run whose tool calls the permission mode denied, naming them with their counts, without a retry", async () => {
    const denied = [{ tool_name: "Bash" }, { tool_name: "Edit" }, { tool_name: "Bash" }];
    const { outcome, lines } = await step(result({ permission_denials: denied }));
    const error = "3 tool calls (Bash ×2, Edit) denied by the agent's permission mode; the work may be incomplete. Change the profile's permission mode to allow them";
    expect(outcome).toMatchObject({ status: "failed", error, retry: false });
    expect(lines).toContain(`[ringmaster] ${error}`);
    const one = await step(result({ permission_denials: [{ tool_name: "WebFetch" }] }));
    expect(one.outcome.error).toBe("1 tool call (WebFetch) denied by the agent's permission mode; the work may be incomplete. Change the profile's permission mode to allow them");
  });

  it("runs the verify command in the worktree after the agent: its verdict decides, its output is the failure log", async () => {
    const passed = await step(["echo ok > ok.txt", result()].join("\n"), { verifyCommand: "test -f ok.txt && echo verified" });
    expect(passed.outcome.status).toBe("succeeded");
    expect(passed.lines).toContain("[ringmaster] verify `test -f ok.txt && echo verified`: passed");
    expect(await readFile(join(passed.worktree, "ok.txt"), "utf8")).toBe("ok\n");

    const failed = await step(result(), { verifyCommand: "echo 'missing ok.txt'; exit 1" });
    expect(failed.outcome).toMatchObject({ status: "failed", error: "verify command failed" });
    expect(failed.outcome.failureLog).toContain("missing ok.txt");
    expect(failed.lines).toContain("[ringmaster] verify `echo 'missing ok.txt'; exit 1`: FAILED");
  });

  it("tells a timeout, a cancel and a ceiling apart; a ceiling's stop is not retried", async () => {
    const slow = await step(["sleep 30", result()].join("\n"), { maxRunDurationMs: 300 });
    expect(slow.outcome).toMatchObject({ status: "timed_out", error: "exceeded the maximum duration of 300 ms" });

    const abort = new AbortController();
    const cancelled = await step(["sleep 30", result()].join("\n"), { signal: abort.signal, onSpawn: () => abort.abort("cancelled by alice") });
    expect(cancelled.outcome).toMatchObject({ status: "cancelled", error: "cancelled by alice" });

    const turns = await step([toolUse("a1", "Bash"), toolUse("a2", "Bash"), toolUse("a3", "Bash"), "sleep 30", result()].join("\n"), { ceilings: { maxToolCalls: 2 } });
    expect(turns.outcome).toMatchObject({ status: "failed", retry: false, error: "stopped: tool calls 3 passed the run limit of 2" });
    expect(turns.lines).toContain("[ringmaster] stopped: tool calls 3 passed the run limit of 2");
  });

  it("fails on the CLI's exit or its failed result, and says so in the log where the CLI's output does not", async () => {
    const exited = await step([assistant("m1", "trying"), "exit 3"].join("\n"));
    expect(exited.outcome).toMatchObject({ status: "failed", exitCode: 3, error: "agent exited with 3" });
    expect(exited.lines.filter((l) => l.startsWith("[ringmaster] "))).toEqual([]);

    const reported = await step(result({ subtype: "error_during_execution", is_error: true, result: "model API said 529" }));
    expect(reported.outcome).toMatchObject({ status: "failed", error: "the agent reported a failure: model API said 529" });
    expect(reported.lines).toContain("[ringmaster] the agent reported a failure: model API said 529");
  });

  it("raises the project's budget alerts as the spend reaches the ledger", async () => {
    const { outcome, run } = await step([assistant("m1", "hi"), result({ total_cost_usd: 2 })].join("\n"), {
      beforeStart: (projectId) => getDb().projectSettings.update({ where: { projectId }, data: { dailyBudgetUsd: 1 } }),
    });
    expect(outcome.costUsd).toBe(2);
    const alerts = await getDb().activityEvent.findMany({ where: { projectId: run.projectId, type: "budgetAlert" }, orderBy: { id: "asc" } });
    expect(alerts.map((a) => a.message)).toEqual([
      "Budget alert: $2.00 spent, 80 % of the project's daily budget of $1.00",
      "Budget alert: $2.00 spent, 90 % of the project's daily budget of $1.00",
      "Budget alert: $2.00 spent, 100 % of the project's daily budget of $1.00; the loop pauses and new runs are refused",
    ]);
  });

  it("writes the spend to the ledger before it returns", async () => {
    const { run } = await step([assistant("m1", "hi", { input_tokens: 100, output_tokens: 40 }), result()].join("\n"));
    const sum = await getDb().spendEntry.aggregate({ where: { runId: run.id }, _sum: { inputTokens: true, outputTokens: true } });
    expect(sum._sum).toEqual({ inputTokens: 100, outputTokens: 40 });
  });
});
