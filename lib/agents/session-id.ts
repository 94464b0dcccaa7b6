import { z } from "zod";

export const SESSION_ID_MAX = 200;
// The CLIs' ids are UUIDs or short words (opencode's `ses_…`): printable ASCII, no spaces.
const PRINTABLE = /^[\x21-\x7e]+$/;

/**
 * A CLI's session id as a run records it. The id comes from the agent's own output (or a runner's
 * report of it), so anything else — a control character, a space, a megabyte — is refused.
 */
export const sessionIdShape = z.string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(SESSION_ID_MAX, `must be at most ${SESSION_ID_MAX} characters`)
  .regex(PRINTABLE, "must be printable ASCII without spaces or control characters");

export const isSessionId = (value: string): boolean => sessionIdShape.safeParse(value).success;

/** The model a CLI says it used (a profile's model is at most 100 characters too), of the same shape. */
export const cliModelShape = z.string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .regex(PRINTABLE, "must be printable ASCII without spaces or control characters");

export const isCliModel = (value: string): boolean => cliModelShape.safeParse(value).success;
