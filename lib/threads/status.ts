import { getDb, Prisma } from "@/lib/db";
import { ControlError } from "@/lib/errors";
import { AccessError } from "@/lib/auth/access";
import { announceStatus } from "@/lib/threads/events";
import { statusRank, TURN_STATUSES, type TurnStatusName } from "@/lib/threads/schema";

export interface StatusChange {
  /** How many turns changed; 0 means nothing was written and nothing announced. */
  count: number;
  seqs: number[];
}

const before = (status: TurnStatusName) => TURN_STATUSES.slice(0, statusRank(status));
const stampColumn = (status: TurnStatusName) => Prisma.raw(status === "delivered" ? `"deliveredAt"` : `"evaluatedAt"`);

/**
 * Moves turns forward to `status` with one conditional update: only turns still behind it change,
 * so a repeat (or a racing writer) changes nothing, writes nothing and announces nothing.
 */
async function advance(threadId: string, status: "delivered" | "evaluated", where: Prisma.Sql, announced: number[] | "all" | null): Promise<StatusChange> {
  const lower = before(status);
  const rows = await getDb().$queryRaw<{ seq: number }[]>`
    UPDATE "Turn" SET status = ${status}::"TurnStatus", ${stampColumn(status)} = now()
    WHERE "threadId" = ${threadId} AND status::text IN (${Prisma.join(lower)}) ${where}
    RETURNING seq`;
  const seqs = rows.map((r) => r.seq).sort((a, b) => a - b);
  if (seqs.length) await announceStatus(threadId, status, announced ?? seqs);
  return { count: seqs.length, seqs };
}

const onlySeqs = (seqs?: readonly number[]) => (seqs ? Prisma.sql`AND seq IN (${Prisma.join(seqs.length ? seqs : [-1])})` : Prisma.empty);

/** The lead's loop saw these turns (all sent turns when `seqs` is absent). */
export function markDelivered(threadId: string, seqs?: readonly number[]): Promise<StatusChange> {
  return advance(threadId, "delivered", onlySeqs(seqs), null);
}

/** The lead's run read these turns and ended ("all": every turn of the thread). */
export function markEvaluated(threadId: string, seqs: readonly number[] | "all"): Promise<StatusChange> {
  return advance(threadId, "evaluated", seqs === "all" ? Prisma.empty : onlySeqs(seqs), seqs === "all" ? "all" : null);
}

/**
 * One turn to `status` (a routed turn when its worker first reports, then when it finishes).
 * Reaching a status it already has changes nothing; going backwards is refused (409).
 */
export async function setTurnStatus(threadId: string, seq: number, status: TurnStatusName): Promise<StatusChange> {
  if (status === "sent") {
    const turn = await getDb().turn.findUnique({ where: { threadId_seq: { threadId, seq } }, select: { status: true } });
    if (!turn) throw new AccessError(404, "turn not found");
    if (turn.status !== "sent") throw new ControlError("status", `cannot go back from ${turn.status} to sent`);
    return { count: 0, seqs: [] };
  }
  const change = await advance(threadId, status, onlySeqs([seq]), null);
  if (change.count) return change;
  const turn = await getDb().turn.findUnique({ where: { threadId_seq: { threadId, seq } }, select: { status: true } });
  if (!turn) throw new AccessError(404, "turn not found");
  if (statusRank(turn.status) > statusRank(status)) throw new ControlError("status", `cannot go back from ${turn.status} to ${status}`);
  return change;
}

/** Every turn up to `seq` (what a lead run was given) reached `evaluated`. */
export function markEvaluatedUpTo(threadId: string, seq: number): Promise<StatusChange> {
  return advance(threadId, "evaluated", Prisma.sql`AND seq <= ${seq}`, null);
}
