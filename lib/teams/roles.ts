import { z } from "zod";
import type { TeamRole } from "@/lib/db";
import { roleAtLeast } from "@/lib/teams/membership";
import { AccessError } from "@/lib/teams/membership";
import type { Actor } from "@/lib/auth/actor";

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
