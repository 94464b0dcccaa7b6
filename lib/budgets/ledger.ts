import { getPool } from "@/lib/db";
import type { UsageLine as LedgerLine } from "@/lib/spend/meter";

export type LedgerRun = { runId: string; teamId: string; projectId: string; agentProfileId: string | null; queuedById: string | null };

/**
 * Writes usage lines to the ledger. A line seen again (a replay, or a CLI repeating a
 * message with its grown usage) overwrites its own row: the ledger counts each line once.
 */
export async function writeLedgerLines(run: LedgerRun, lines: LedgerLine[]): Promise<void> {
  if (lines.length === 0) return;
  const values: unknown[] = [];
  const rows = lines.map((l, i) => {
    values.push(l.key, l.model, Math.round(l.inputTokens), Math.round(l.cachedTokens), Math.round(l.cacheWriteTokens), Math.round(l.outputTokens), l.costUsd);
    const o = i * 7 + 5;
    return `($1, $2, $3, $4, $5, $${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7}, now())`;
  });
  await getPool().query(
    `INSERT INTO "SpendEntry" ("teamId", "projectId", "runId", "agentProfileId", "queuedById", "key", "model", "inputTokens", "cachedTokens", "cacheWriteTokens", "outputTokens", "costUsd", "updatedAt")
     VALUES ${rows.join(", ")}
     ON CONFLICT ("runId", "key") DO UPDATE SET "model" = EXCLUDED."model", "inputTokens" = EXCLUDED."inputTokens",
       "cachedTokens" = EXCLUDED."cachedTokens", "cacheWriteTokens" = EXCLUDED."cacheWriteTokens", "outputTokens" = EXCLUDED."outputTokens", "costUsd" = EXCLUDED."costUsd", "updatedAt" = now()`,
    [run.teamId, run.projectId, run.runId, run.agentProfileId, run.queuedById, ...values],
  );
}

/**
 * Sends a run's lines to the ledger as they arrive, one write in flight at a time: lines that
 * change while a write is under way go in the next one (only each line's latest figures
 * matter), and a failed write keeps its lines for the next try.
 */
export class LedgerWriter {
  private readonly dirty = new Map<string, LedgerLine>();
  private inFlight: Promise<void> | null = null;

  constructor(private readonly run: LedgerRun, private readonly afterWrite: () => Promise<void>, private readonly onError: (err: Error) => void) {}

  put(lines: LedgerLine[]): void {
    for (const l of lines) this.dirty.set(l.key, l);
    if (!this.inFlight) this.inFlight = this.drain();
  }

  /** Resolves once every line put so far is in the ledger; rejects when Postgres refused the last try. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    if (this.dirty.size === 0) return;
    await this.writeDirty();
    await this.afterWrite();
  }

  /** Writes every line put so far; on failure puts back each line no newer value replaced. */
  private async writeDirty(): Promise<void> {
    const lines = [...this.dirty.values()];
    this.dirty.clear();
    try {
      await writeLedgerLines(this.run, lines);
    } catch (err) {
      for (const l of lines) if (!this.dirty.has(l.key)) this.dirty.set(l.key, l);
      throw err;
    }
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty.size > 0) {
        try {
          await this.writeDirty();
        } catch (err) {
          this.onError(err as Error);
          return;
        }
        await this.afterWrite().catch((err: Error) => this.onError(err));
      }
    } finally {
      this.inFlight = null;
    }
  }
}
