import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { commitChange } from "@/lib/activity/change";
import { DomainError } from "@/lib/errors";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { mirrorCampaignState } from "@/lib/campaigns/mirror";
import { addEvent, changePhase, OPEN_PHASES, PhaseConflict, replan } from "@/lib/campaigns/state";

export const campaignAction = z.object({ action: z.enum(["start", "pause", "cancel", "replan"]) }).strict();
export type CampaignAction = z.infer<typeof campaignAction>["action"];

const closed = () => new DomainError(409, "campaign_closed", "This campaign is over: it can no longer be started, paused or re-planned");

/**
 * A person's controls: start (resume a paused campaign), pause (no architect or reflector starts and
 * its tasks are not claimed), cancel (its waiting tasks are cancelled; running ones finish), re-plan now.
 */
export async function controlCampaign(actor: Actor, project: { id: string; teamId: string }, campaignId: string, action: CampaignAction) {
  const result = await commitChange(project, async (tx) => {
    const c = await tx.campaign.findUniqueOrThrow({ where: { id: campaignId } });
    if (!OPEN_PHASES.includes(c.phase)) throw closed();
    if (action === "start" || action === "pause") {
      const paused = action === "pause";
      if (c.paused === paused) return { c, message: null };
      await tx.campaign.update({ where: { id: c.id }, data: { paused } });
      await addEvent(tx, c.id, paused ? "paused" : "resumed", paused ? "Paused" : "Started again");
      return { c, message: `Campaign "${c.title}" ${paused ? "paused" : "started again"}` };
    }
    if (action === "cancel") {
      const waiting = await tx.prompt.findMany({ where: { campaignId: c.id, status: "pending" }, select: { id: true } });
      for (const p of waiting) await changePromptStatus(p.id, { from: "pending", to: "cancelled" }, tx);
      await changePhase(tx, c.id, "cancelled").catch(rethrowClosed);
      await addEvent(tx, c.id, "cancelled", "Cancelled");
      return { c, message: `Campaign "${c.title}" cancelled` };
    }
    if (c.phase === "planning") throw new DomainError(409, "campaign_planning", "The campaign is already being planned");
    const who = actor.kind === "user" ? "a person" : "an API token";
    // A person asking skips any backoff the automatic re-plans built up.
    await replan(tx, c, `Re-plan requested by ${who}`, "replan", { planAfter: null });
    return { c, message: `Campaign "${c.title}": re-plan requested` };
  }, ({ c, message }) => message === null ? null : ({
    audit: { by: actor, action: `campaign.${action}`, target: { type: "campaign", id: c.id }, before: { phase: c.phase, paused: c.paused } },
    activity: ["campaignChange", message],
    nudge: `campaign ${action}`,
    addsWork: action === "start" || action === "replan",
  }));
  // A cancelled campaign gets no more ticks: its last state reaches git here.
  await mirrorCampaignState(campaignId);
  return result;
}

const rethrowClosed = (err: unknown) => {
  throw err instanceof PhaseConflict ? closed() : err;
};
