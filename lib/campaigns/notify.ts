import { recordActivity } from "@/lib/activity/record";
import { announce } from "@/lib/events/publish";
import { postNotice } from "@/lib/threads/notices";

/**
 * A campaign moved (planned, re-planned, drifted, completed, failed): the project's activity, the
 * campaign's page and the team hear it. The team hears it as a system turn in the project's notices
 * thread, which the Slack forwarder sends on to every channel mapped to the project.
 */
export async function notifyCampaign(project: { id: string; teamId: string }, campaignId: string, message: string) {
  await recordActivity(project, "campaignChange", message);
  await postNotice(project.id, message, "campaign");
  await announce(project.teamId, { type: "campaignChange", projectId: project.id, campaignId });
}
