import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { commitChange } from "@/lib/activity/change";
import { isSafeText } from "@/lib/validation/safe-text";
import { MAX_PLAN_BYTES, parsePlan, type Plan } from "@/lib/campaigns/plan";
import { mirrorCampaignState } from "@/lib/campaigns/mirror";
import { addEvent, applyPlan } from "@/lib/campaigns/state";

// One schema for the form and the API. A plan may come with the goal (a person who already has
// one); it is held to the architect's rules, and a bad one creates nothing.
export const campaignInput = z.object({
  goal: z.string().trim().min(1, "is required").max(100_000, "must be at most 100000 characters"),
  title: z.string().trim().max(200, "must be at most 200 characters").optional(),
  plan: z.unknown().optional(),
}).strict();

export type CampaignInput = z.input<typeof campaignInput>;

/** The plan a person gave, checked like an architect's: every problem under the field `plan`. */
export function planFromInput(raw: unknown): Plan {
  const text = typeof raw === "string" ? raw : JSON.stringify(raw);
  if (Buffer.byteLength(text) > MAX_PLAN_BYTES) throw planError(`must be at most ${MAX_PLAN_BYTES} bytes`);
  const parsed = parsePlan(text);
  if (!parsed.ok) throw planError(`is not a valid plan: ${parsed.errors.slice(0, 5).join("; ")}`);
  return parsed.plan;
}

const planError = (message: string) => new z.ZodError([{ code: "custom", path: ["plan"], message, input: undefined }]);

/** A new campaign: PLANNING (the tick starts its architect), or EXECUTING at once with a given plan. */
export async function createCampaign(actor: Actor, project: { id: string; teamId: string }, raw: CampaignInput) {
  const input = campaignInput.parse(raw);
  const plan = input.plan === undefined ? null : planFromInput(input.plan);
  const title = input.title || input.goal.split("\n")[0].replace(/^#+\s*/, "").slice(0, 200);
  if (!isSafeText(title)) throw new z.ZodError([{ code: "custom", path: ["title"], message: "must not contain NUL characters", input: undefined }]);
  const created = await commitChange(project, async (tx) => {
    const campaign = await tx.campaign.create({ data: { projectId: project.id, title, goal: input.goal, createdById: actor.kind === "user" ? actor.id : null } });
    await addEvent(tx, campaign.id, "created", `Campaign created${plan ? " with a plan" : "; the architect plans it"}`);
    if (plan) await applyPlan(tx, campaign, plan, null);
    return tx.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
  }, (campaign) => ({
    audit: { by: actor, action: "campaign.created", target: { type: "campaign", id: campaign.id }, after: { title: campaign.title, phase: campaign.phase } },
    activity: ["campaignChange", `Campaign "${campaign.title}" created`],
    nudge: "campaign created",
    addsWork: true,
  }));
  await mirrorCampaignState(created.id);
  return created;
}
