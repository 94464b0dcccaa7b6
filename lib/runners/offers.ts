import { z } from "zod";
import { getDb, type AgentModel as Agent } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { requireRole, type Actor } from "@/lib/auth/actor";
import { AccessError } from "@/lib/auth/access";
import { recordAudit } from "@/lib/audit/record";
import { ControlError, DomainError } from "@/lib/errors";
import { silentAfterMs } from "@/lib/routing/agents";
import { wakeRunners } from "@/lib/runners/wake";

export const OFFER_TTL_MS = 5 * 60_000;

export const offerInput = z.object({ promptId: z.string({ error: "is required" }).trim().min(1, "is required").max(200, "is not a prompt") });
export const offerAnswer = z.object({
  accept: z.boolean({ error: "must be true or false" }),
  reason: z.string().trim().max(500, "must be at most 500 characters").optional(),
});

/** An operator offers a prompt waiting for a runner to one agent; it accepts or rejects it. */
export async function offerPrompt(actor: Actor, agentId: string, raw: unknown, now = new Date()) {
  requireRole(actor, "operator");
  const { promptId } = offerInput.parse(raw);
  const db = getDb();
  const agent = await db.agent.findFirst({ where: { id: agentId, teamId: actor.teamId, ...(actor.projectId ? { projectId: actor.projectId } : {}) } });
  if (!agent) throw new AccessError(404, "runner not found");
  const online = agent.status !== "offline" && agent.lastSeenAt && now.getTime() - agent.lastSeenAt.getTime() < silentAfterMs(getEnv().LEASE_TTL_MS);
  if (!online) throw new ControlError("agentId", "is offline: an offer needs a runner that is polling");
  const prompt = await db.prompt.findFirst({
    where: { id: promptId, project: { teamId: actor.teamId, archivedAt: null, ...(actor.projectId ? { id: actor.projectId } : {}), ...(agent.projectId ? { id: agent.projectId } : {}) } },
    include: { runs: { where: { remote: true, status: "queued" }, select: { id: true, remoteAgentId: true } } },
  });
  if (!prompt) throw new ControlError("promptId", "is not a prompt of this team", 400);
  if (!prompt.runs.some((r) => !r.remoteAgentId)) throw new ControlError("promptId", "is not waiting for a runner");
  const offer = await db.taskOffer.create({ data: { agentId: agent.id, promptId: prompt.id, expiresAt: new Date(now.getTime() + OFFER_TTL_MS) } });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "runner.offered", target: { type: "task_offer", id: offer.id }, after: { agentId: agent.id, promptId: prompt.id } });
  await wakeRunners(actor.teamId);
  return { id: offer.id, agentId: agent.id, promptId: prompt.id, status: offer.status, expiresAt: offer.expiresAt };
}

/**
 * The agent's answer. Accepting assigns the prompt's waiting run to the agent (its next poll
 * starts it as `task_assigned`); rejecting, or an offer that expired, leaves the run in the pool.
 */
export async function answerOffer(agent: Agent, offerId: string, raw: unknown, now = new Date()) {
  const { accept, reason } = offerAnswer.parse(raw);
  const db = getDb();
  const offer = await db.taskOffer.findFirst({ where: { id: offerId, agentId: agent.id } });
  if (!offer) throw new DomainError(404, "not_found", "offer not found");
  if (!["offered", "delivered"].includes(offer.status)) throw new ControlError("offer", `was already ${offer.status}`);
  if (offer.expiresAt <= now) {
    await db.taskOffer.updateMany({ where: { id: offer.id, status: offer.status }, data: { status: "expired" } });
    throw new ControlError("offer", "has expired");
  }
  const answered = await db.$transaction(async (tx) => {
    const n = await tx.taskOffer.updateMany({ where: { id: offer.id, status: offer.status }, data: { status: accept ? "accepted" : "rejected", reason, respondedAt: now } });
    if (n.count !== 1) throw new ControlError("offer", "was answered already");
    if (!accept) return "rejected";
    const assigned = await tx.run.updateMany({ where: { promptId: offer.promptId, remote: true, status: "queued", remoteAgentId: null }, data: { remoteAgentId: agent.id } });
    if (assigned.count === 0) throw new ControlError("offer", "is for a task no longer waiting for a runner");
    return "accepted";
  });
  await wakeRunners(agent.teamId);
  return { id: offer.id, status: answered };
}
