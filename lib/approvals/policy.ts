import { z } from "zod";
import { getDb } from "@/lib/db";
import { requireProject, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";

export const policyInput = z.object({
  approvalPolicy: z.enum(["none", "planner", "all"], { error: "must be none, planner or all" }).optional(),
  approveMerges: z.boolean({ error: "must be true or false" }).optional(),
  approveFixPastCap: z.boolean({ error: "must be true or false" }).optional(),
});
export type PolicyInput = z.input<typeof policyInput>;

const pick = (s: { approvalPolicy: string; approveMerges: boolean; approveFixPastCap: boolean }) =>
  ({ approvalPolicy: s.approvalPolicy, approveMerges: s.approveMerges, approveFixPastCap: s.approveFixPastCap });

export async function listPolicies(actor: Actor) {
  const projects = await getDb().project.findMany({
    where: { teamId: actor.teamId, archivedAt: null, ...(actor.projectId ? { id: actor.projectId } : {}) },
    include: { settings: true }, orderBy: { name: "asc" },
  });
  return projects.filter((p) => p.settings).map((p) => ({ projectId: p.id, name: p.name, ...pick(p.settings!) }));
}

/** Project settings are the admins' (issue 5 roles). */
export async function setApprovalPolicy(actor: Actor, projectId: string, raw: PolicyInput) {
  const input = policyInput.parse(raw);
  const project = await requireProject(actor, projectId, "admin");
  const db = getDb();
  const before = await db.projectSettings.findUniqueOrThrow({ where: { projectId: project.id } });
  const after = await db.projectSettings.update({ where: { projectId: project.id }, data: input });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "project.approval_policy_changed", target: { type: "project", id: project.id }, before: pick(before), after: pick(after) });
  return { projectId: project.id, name: project.name, ...pick(after) };
}
