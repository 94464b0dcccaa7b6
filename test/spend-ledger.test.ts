import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { LedgerWriter, writeLedgerLines, type LedgerRun } from "@/lib/budgets/ledger";
import type { UsageLine } from "@/lib/spend/meter";
import { liveRun } from "./helpers/runs";

const line = (key: string, inputTokens: number, costUsd = 0.5): UsageLine =>
  ({ key, model: "claude-sonnet-4-5", inputTokens, cachedTokens: 7.4, cacheWriteTokens: 3.2, outputTokens: 20.6, costUsd });

async function ledgerRun(): Promise<LedgerRun> {
  const { run, team, project, profile } = await liveRun();
  const user = await getDb().user.create({ data: { email: `ledger-${run.id}@example.test` } });
  return { runId: run.id, teamId: team.id, projectId: project.id, agentProfileId: profile.id, queuedById: user.id };
}

async function rows(runId: string) {
  const entries = await getDb().spendEntry.findMany({ where: { runId }, orderBy: { key: "asc" } });
  return entries.map((e) => [e.key, e.inputTokens, e.cachedTokens, e.cacheWriteTokens, e.outputTokens, e.costUsd]);
}

// Postgres refuses a token count past a 4-byte integer: a write the ledger cannot take.
const TOO_MANY = 3_000_000_000;

describe("the spend ledger's writes", () => {
  it("writes each line with its run, team, project, profile and author, tokens rounded; a line seen again overwrites its row", async () => {
    const run = await ledgerRun();
    await writeLedgerLines(run, []);
    expect(await rows(run.runId)).toEqual([]);
    await writeLedgerLines(run, [line("m1", 100.4), line("m2", 200.5, 0.25)]);
    await writeLedgerLines(run, [line("m1", 150, 0.75), line("result", 9)]);
    expect(await rows(run.runId)).toEqual([["m1", 150, 7, 3, 21, 0.75], ["m2", 201, 7, 3, 21, 0.25], ["result", 9, 7, 3, 21, 0.5]]);
    const entries = await getDb().spendEntry.findMany({ where: { runId: run.runId } });
    expect(entries.map((e) => [e.teamId, e.projectId, e.agentProfileId, e.queuedById, e.model])).toEqual(
      Array(3).fill([run.teamId, run.projectId, run.agentProfileId, run.queuedById, "claude-sonnet-4-5"]));
  });

  it("writes lines put while a write is under way in the next one, calling afterWrite after each", async () => {
    const run = await ledgerRun();
    let afterWrites = 0;
    const errors: string[] = [];
    const writer = new LedgerWriter(run, async () => { afterWrites++; }, (err) => errors.push(err.message));
    writer.put([line("m1", 10)]);
    writer.put([line("m1", 11), line("m2", 20)]);
    await writer.flush();
    expect(await rows(run.runId)).toEqual([["m1", 11, 7, 3, 21, 0.5], ["m2", 20, 7, 3, 21, 0.5]]);
    expect(afterWrites).toBe(2);
    // Nothing left to write: flush neither writes nor calls afterWrite.
    await writer.flush();
    expect(afterWrites).toBe(2);
    expect(errors).toEqual([]);
  });

  it("keeps the lines of a refused write for the next try, unless a newer value of a line came meanwhile", async () => {
    const run = await ledgerRun();
    let afterWrites = 0;
    const errors: string[] = [];
    const writer = new LedgerWriter(run, async () => { afterWrites++; }, (err) => errors.push(err.message));
    writer.put([line("m1", 10), line("m2", TOO_MANY)]);
    // Arrives while the refused write is in flight: it must win over the put-back m2.
    writer.put([line("m2", 30)]);
    await writer.flush();
    expect(errors).toEqual([expect.stringContaining("out of range for type integer")]);
    expect(await rows(run.runId)).toEqual([["m1", 10, 7, 3, 21, 0.5], ["m2", 30, 7, 3, 21, 0.5]]);
    expect(afterWrites).toBe(1);
  });

  it("rejects a flush Postgres refused, keeping the lines; a later flush writes them", async () => {
    const run = await ledgerRun();
    const errors: string[] = [];
    let afterWrites = 0;
    const writer = new LedgerWriter(run, async () => { afterWrites++; }, (err) => errors.push(err.message));
    writer.put([line("m1", TOO_MANY)]);
    await writer.flush().catch(() => {});
    expect(errors).toHaveLength(1);
    // The drain gave up; the line is still dirty, and a flush tries it again (and fails again).
    await expect(writer.flush()).rejects.toThrow(/out of range for type integer/);
    expect(afterWrites).toBe(0);
    writer.put([line("m1", 12)]);
    await writer.flush();
    expect(await rows(run.runId)).toEqual([["m1", 12, 7, 3, 21, 0.5]]);
    expect(afterWrites).toBe(1);
  });

  it("reports an afterWrite failure and goes on writing", async () => {
    const run = await ledgerRun();
    const errors: string[] = [];
    const writer = new LedgerWriter(run, async () => { throw new Error("alert check failed"); }, (err) => errors.push(err.message));
    writer.put([line("m1", 1)]);
    writer.put([line("m2", 2)]);
    await writer.flush().catch(() => {});
    expect(errors).toEqual(["alert check failed", "alert check failed"]);
    expect(await rows(run.runId)).toEqual([["m1", 1, 7, 3, 21, 0.5], ["m2", 2, 7, 3, 21, 0.5]]);
  });
});
