import { getDb } from "@/lib/db";
import { MAX_REPLANS } from "@/lib/campaigns/state";

/** Events a campaign's page shows: its newest, so a long campaign's latest state is always there. */
const EVENTS_SHOWN = 500;

/** A campaign's page: the campaign, its newest events (oldest first) and its tasks, current plan first. */
export async function getCampaignView(campaignId: string) {
  const db = getDb();
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
  const [newest, tasks] = await Promise.all([
    db.campaignEvent.findMany({ where: { campaignId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: EVENTS_SHOWN }),
    db.prompt.findMany({
      where: { campaignId }, orderBy: [{ campaignPlan: "desc" }, { number: "asc" }],
      select: { id: true, number: true, taskId: true, title: true, status: true, dependencies: true, attempts: true, maxAttempts: true, campaignPlan: true, domain: true },
    }),
  ]);
  return { campaign, events: newest.reverse(), tasks, maxReplans: MAX_REPLANS };
}

export const listCampaigns = (projectId: string) =>
  getDb().campaign.findMany({ where: { projectId }, orderBy: { createdAt: "desc" }, take: 200 });
