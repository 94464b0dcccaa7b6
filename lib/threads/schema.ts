import { z } from "zod";
import { isSafeText, UNSAFE_TEXT } from "@/lib/validation/safe-text";

/** Who wrote a turn: a person, the thread's lead agent, a worker run, a monitor (CI, reviews) or the system. */
export const TURN_ACTORS = ["person", "lead", "worker", "monitor", "system"] as const;
export type TurnActor = (typeof TURN_ACTORS)[number];

export const TURN_ACTIONS = ["message", "route", "progress", "result", "wait", "verify", "confirm"] as const;
export type TurnAction = (typeof TURN_ACTIONS)[number];

/** Statuses only move forward: sent → delivered → evaluated. */
export const TURN_STATUSES = ["sent", "delivered", "evaluated"] as const;
export type TurnStatusName = (typeof TURN_STATUSES)[number];
export const statusRank = (s: TurnStatusName) => TURN_STATUSES.indexOf(s);

// A turn is a message, not a document: 100,000 characters is far past any real one and keeps a
// thread's page small; a larger body is refused at the door rather than stored.
export const MAX_TURN_CHARS = 100_000;

export const turnText = z.string({ error: "must be text" })
  .refine(isSafeText, UNSAFE_TEXT)
  .transform((s) => s.trim())
  .pipe(z.string().min(1, "is required").max(MAX_TURN_CHARS, `must be at most ${MAX_TURN_CHARS} characters`));

/** What a person (or an integration acting for one) sends to a thread. */
export const personTurnInput = z.object({ text: turnText }).strict();

export const threadInput = z.object({
  projectId: z.string({ error: "is required" }).min(1, "is required").max(200),
  title: z.string({ error: "must be text" }).trim().min(1, "is required").max(200, "must be at most 200 characters"),
  text: turnText.optional(),
}).strict();

export const turnStatusField = z.enum(TURN_STATUSES, { error: "must be one of sent, delivered, evaluated" });
