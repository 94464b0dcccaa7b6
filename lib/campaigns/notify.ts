import { recordActivity } from "@/lib/activity/record";
import { announce } from "@/lib/events/publish";

/** A campaign moved (planned, re-planned, drifted, completed, failed): the project's activity and the campaign's page hear it. */
export async function notifyCampaign(project: { id: string; teamId: string }, campaignId: string, message: string) {
  await recordActivity(project, "campaignChange", message);
  await announce(project.teamId, { type: "campaignChange", projectId: project.id, campaignId });
}
