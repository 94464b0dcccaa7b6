import { getDb, type ApprovalKind, type ApprovalState, type Prisma } from "@/lib/db";
import type { AuditBy } from "@/lib/audit/record";

/** How an approval row names who asked: "user:<id>", "token:<id>" or "system". */
export const requesterOf = (by: AuditBy): string => (by.kind === "system" ? "system" : `${by.kind}:${by.id}`);

type Target = { kind: ApprovalKind; promptId?: string | null; pullRequestId?: string | null };

/** Opens a pending approval unless one for the same thing is already waiting. */
export async function requestApproval(
  project: { id: string; teamId: string },
  target: Target,
  by: AuditBy,
  tx: Pick<Prisma.TransactionClient, "approval"> = getDb(),
) {
  const where = { projectId: project.id, kind: target.kind, promptId: target.promptId ?? null, pullRequestId: target.pullRequestId ?? null };
  const waiting = await tx.approval.findFirst({ where: { ...where, status: "pending" } });
  return waiting ?? tx.approval.create({ data: { ...where, teamId: project.teamId, requestedBy: requesterOf(by) } });
}

/**
 * For the merge and review-fix paths: "approved" lets the action proceed; otherwise the
 * caller waits ("pending", a request is opened if none exists) or gives up ("rejected").
 * The latest decision on the pull request holds until someone asks again.
 */
export async function approvalGate(
  pr: { id: string; projectId: string; fixCycles: number },
  kind: Exclude<ApprovalKind, "prompt_run">,
): Promise<ApprovalState> {
  const db = getDb();
  const project = await db.project.findUniqueOrThrow({ where: { id: pr.projectId }, include: { settings: true } });
  const s = project.settings;
  const required = kind === "pr_merge" ? Boolean(s?.approveMerges) : Boolean(s?.approveFixPastCap) && pr.fixCycles >= (s?.maxFixCycles ?? 3);
  if (!required) return "not_required";
  const latest = await db.approval.findFirst({ where: { projectId: pr.projectId, pullRequestId: pr.id, kind }, orderBy: { createdAt: "desc" } });
  if (latest) return latest.status;
  await requestApproval(project, { kind, pullRequestId: pr.id }, { kind: "system" });
  return "pending";
}
