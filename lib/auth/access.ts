import { z } from "zod";
import type { TeamRole } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";

export type { TeamRole };
import { DomainError } from "@/lib/errors";

/** Another team's object does not exist for the caller (404); too low a role is 403. */
export class AccessError extends DomainError {
  constructor(status: 403 | 404, message: string) {
    super(status, status === 404 ? "not_found" : "forbidden", message);
  }
}

const rank: Record<TeamRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

export const roleAtLeast = (role: TeamRole, needed: TeamRole) => rank[role] >= rank[needed];

export const roles = ["owner", "admin", "operator", "viewer"] as const satisfies readonly TeamRole[];
export const roleField = z.enum(roles, { error: "must be one of owner, admin, operator, viewer" });

export const roleSummary: Record<TeamRole, string> = {
  owner: "everything, including other owners",
  admin: "members, settings and tokens",
  operator: "runs the loop, edits prompts, approves",
  viewer: "reads only",
};

/** Nobody hands out more than they hold (an admin cannot make an owner). */
export function requireMayGrant(actor: Actor, role: TeamRole): void {
  if (!roleAtLeast(actor.role, role)) throw new AccessError(403, `an ${actor.role} cannot grant the ${role} role`);
}
