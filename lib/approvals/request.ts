import { getDb, type ApprovalKind, type ApprovalPolicy, type ApprovalState, type Prisma } from "@/lib/db";
import type { AuditBy } from "@/lib/audit/record";

/** How an approval row names who asked: "user:<id>", "token:<id>" or "system". */
export const requesterOf = (by: AuditBy): string => (by.kind === "system" ? "system" : `${by.kind}:${by.id}`);

/**
 * Whether a new prompt waits for a human: policy "all" holds every one, "planner" those an agent
 * wrote (through its run's token, or as a prompt file in the repository), however they arrive.
 */
export function promptApproval(policy: ApprovalPolicy, writtenByAgent: boolean): ApprovalState {
  return policy === "all" || (policy === "planner" && writtenByAgent) ? "pending" : "not_required";
}

/** True when the caller is an agent: the token handed to a run. */
export async function isAgent(by: AuditBy): Promise<boolean> {
  if (by.kind !== "token" || !by.id) return false;
  return Boolean((await getDb().apiToken.findUnique({ where: { id: by.id }, select: { runId: true } }))?.runId);
}

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
