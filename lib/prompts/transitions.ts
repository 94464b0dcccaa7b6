import { getDb, type Prisma, type PromptStatus } from "@/lib/db";
import { DomainError, INTERNAL } from "@/lib/errors";

/**
 * Every legal change of a prompt's status. This module is the only writer of Prompt.status
 * (creating a prompt sets its first one): each change is a conditional update, so of two
 * racing writers one wins and the other changes nothing.
 */
export const PROMPT_TRANSITIONS: Readonly<Record<PromptStatus, readonly PromptStatus[]>> = {
  // claimed by a run; closed by its prompt file; cancelled by a person or a rejected approval
  pending: ["in_progress", "done", "cancelled"],
  // finished or merged; retried or given up after a failed attempt; cancelled (run, PR closed, person)
  in_progress: ["done", "pending", "failed", "cancelled"],
  // a person sends it back to the queue
  failed: ["pending"],
  // a person retries it (or its PR was closed under late work); its pull request is reopened
  cancelled: ["pending", "in_progress"],
  // work that finished after its pull request merged was not pushed: the prompt is redone
  done: ["pending"],
};

const FINISHED: ReadonlySet<PromptStatus> = new Set(["done", "failed", "cancelled"]);

/** A change the table does not allow is a bug of the caller, never the requester's fault. */
export class PromptTransitionError extends DomainError {
  constructor(message: string) {
    super(500, INTERNAL, message);
  }
}

type Client = Pick<Prisma.TransactionClient, "prompt">;

export interface PromptStatusChange {
  /** The statuses this caller expects to move from; the row must be in one of them. */
  from: PromptStatus | readonly PromptStatus[];
  to: PromptStatus;
  /** Other columns written with the change (attempts, branch, failure log…). */
  data?: Omit<Prisma.PromptUpdateManyMutationInput, "status" | "completedAt">;
  /** Further conditions on the row (its project, its approval…). */
  where?: Omit<Prisma.PromptWhereInput, "id" | "status">;
}

/**
 * Moves a prompt from one of `from` to `to`, setting `completedAt` with it; true when this call
 * made the change. A change the table does not allow is refused before anything is written.
 */
export async function changePromptStatus(promptId: string, change: PromptStatusChange, db: Client = getDb(), now = new Date()): Promise<boolean> {
  const from = typeof change.from === "string" ? [change.from] : [...change.from];
  const { count } = await db.prompt.updateMany({
    where: { ...change.where, id: promptId, status: { in: from } },
    data: { ...change.data, ...statusColumns(from, change.to, now) },
  });
  return count === 1;
}

/**
 * The columns a legal change writes, for the one statement that makes it in SQL (the claim of
 * lib/runs/claim-statement.ts, which moves the prompt in the same statement as it creates the run).
 */
export function statusColumns(from: readonly PromptStatus[], to: PromptStatus, now: Date): { status: PromptStatus; completedAt: Date | null } {
  const illegal = from.filter((f) => !PROMPT_TRANSITIONS[f].includes(to));
  if (illegal.length > 0) throw new PromptTransitionError(`a prompt cannot go from ${illegal.join(", ")} to ${to}`);
  return { status: to, completedAt: FINISHED.has(to) ? now : null };
}
