import { getDb } from "@/lib/db";
import { MAX_REPLANS } from "@/lib/campaigns/state";

/** A campaign's page: the campaign, its events (oldest first) and its tasks, current plan first. */
export async function getCampaignView(campaignId: string) {
  const db = getDb();
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
  const [events, tasks] = await Promise.all([
    db.campaignEvent.findMany({ where: { campaignId }, orderBy: { createdAt: "asc" }, take: 500 }),
    db.prompt.findMany({
      where: { campaignId }, orderBy: [{ campaignPlan: "desc" }, { number: "asc" }],
      select: { id: true, number: true, taskId: true, title: true, status: true, dependencies: true, attempts: true, maxAttempts: true, campaignPlan: true, domain: true },
    }),
  ]);
  return { campaign, events, tasks, maxReplans: MAX_REPLANS };
}

export const listCampaigns = (projectId: string) =>
  getDb().campaign.findMany({ where: { projectId }, orderBy: { createdAt: "desc" }, take: 200 });
