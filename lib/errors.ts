import { fieldLabel } from "@/lib/validation/labels";

/**
 * The one error family: what went wrong as an HTTP status, a stable code and a message for
 * the caller, and the input at fault. Route handlers map this class alone. A status of 500
 * with the code "internal" is a failure of ours: its message goes to the log, not the caller.
 */
export class DomainError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly field?: string) {
    super(message);
    this.name = new.target.name;
  }
}

export const INTERNAL = "internal";

/** A request that conflicts with the current state (409) or names an impossible value (400). */
export class ControlError extends DomainError {
  constructor(field: string, message: string, status: 400 | 409 = 409) {
    super(status, status === 400 ? "invalid" : "conflict", `${fieldLabel([field])} ${message}`, field);
  }
}
