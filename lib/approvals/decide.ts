import { z } from "zod";
import { getDb } from "@/lib/db";
import { requireRole, type Actor } from "@/lib/auth/actor";
import { ControlError } from "@/lib/errors";
import { AccessError } from "@/lib/auth/access";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { commitChange } from "@/lib/activity/change";

export const decisionInput = z.object({
  decision: z.enum(["approve", "reject"], { error: "must be approve or reject" }),
  comment: z.string().trim().max(2000, "must be at most 2000 characters").optional().transform((v) => v || undefined),
});
export type DecisionInput = z.input<typeof decisionInput>;

/**
 * Approves or rejects waiting work, once. An approved prompt becomes eligible and the loop
 * is nudged at once; a rejected one is cancelled. An agent's own run token never decides.
 */
export async function decideApproval(actor: Actor, approvalId: string, raw: DecisionInput) {
  const input = decisionInput.parse(raw);
  const db = getDb();
  const approval = await db.approval.findFirst({
    where: { id: approvalId, teamId: actor.teamId, ...(actor.projectId ? { projectId: actor.projectId } : {}) },
    include: { project: true, prompt: true },
  });
  if (!approval) throw new AccessError(404, "approval not found");
  requireRole(actor, "operator");
  if (actor.kind === "token" && (await db.apiToken.findUnique({ where: { id: actor.id } }))?.runId) {
    throw new AccessError(403, "an agent's run token cannot decide approvals");
  }
  const status = input.decision === "approve" ? "approved" : "rejected";
  const now = new Date();
  const what = approval.prompt ? `#${approval.prompt.number} ${approval.prompt.title}` : approval.kind.replace(/_/g, " ");
  await commitChange(approval.project, async (tx) => {
    const claimed = await tx.approval.updateMany({
      where: { id: approval.id, status: "pending" },
      data: { status, comment: input.comment, decidedById: actor.id, decidedAt: now },
    });
    if (claimed.count === 0) throw new ControlError("decision", `was already made (${approval.status})`);
    if (approval.kind === "prompt_run" && approval.promptId) {
      const decided = await tx.prompt.updateMany({ where: { id: approval.promptId, approval: "pending" }, data: { approval: status } });
      if (decided.count === 1 && status === "rejected") await changePromptStatus(approval.promptId, { from: "pending", to: "cancelled" }, tx, now);
    }
  }, () => ({
    audit: {
      by: actor, action: `approval.${status}`, target: { type: "approval", id: approval.id },
      before: { status: "pending" }, after: { status, comment: input.comment ?? null, kind: approval.kind, promptId: approval.promptId, pullRequestId: approval.pullRequestId },
    },
    activity: ["promptsChange", `${what}: ${status}${input.comment ? ` (“${input.comment}”)` : ""}`, { promptId: approval.promptId ?? undefined }],
    nudge: `approval ${status}`,
    // An approved merge or fix cycle can unblock its pull request: look at it again now.
    wakeUps: status === "approved" && approval.pullRequestId ? [{ kind: "recheck", pullRequestId: approval.pullRequestId }] : [],
  }));
  return { id: approval.id, status, comment: input.comment ?? null, decidedAt: now };
}
