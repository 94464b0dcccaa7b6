import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { NOTICES_TITLE } from "@/lib/threads/notices";
import { forwardNoticesToSlack } from "@/lib/slack/system-notices";
import { createTeamWithProject } from "./helpers/fixtures";
import { drive, setUp, task } from "./helpers/campaigns";
import { slackTeam, startSlackDouble } from "./helpers/slack-fixtures";

const double = await startSlackDouble();
afterAll(() => double.stop());

const notices = async (projectId: string) => {
  const thread = await getDb().thread.findFirst({ where: { projectId, title: NOTICES_TITLE }, include: { turns: { orderBy: { createdAt: "asc" } } } });
  return (thread?.turns ?? []).map((t) => [t.actor, t.actorId, t.content]);
};

// A campaign that drifts, re-plans and completes tells the team where it talks: the activity log,
// a system turn in the project's notices thread, and the Slack channel mapped to the project.
describe("campaign notices", () => {
  it("drift, re-plan and completion reach the activity log, the notices thread and the mapped Slack channel", async () => {
    const fixture = await createTeamWithProject({ cooldownMs: 0, maxParallel: 1 });
    const slack = await slackTeam(double, undefined, fixture);
    await getDb().slackChannel.updateMany({ where: { projectId: fixture.project.id }, data: { createdAt: new Date(Date.now() - 60_000) } });
    // The scripted architect answers every run with the same two tasks; the reflector drifts at 50 %.
    const { project, campaign } = await setUp({ tasks: [task("t1"), task("t2", { dependencies: ["t1"] })] }, { 50: { aligned: false, reason: "off goal" } }, { fixture });
    await drive(project.id, campaign.id, (c) => c.planVersion === 2);
    const title = campaign.title;
    const drifted = `Campaign "${title}" drifted from its goal; re-planning. DRIFT DETECTED: off goal`;
    const planned = (n: number) => `Campaign "${title}": plan ${n} with 2 tasks; executing`;
    expect(await notices(project.id)).toEqual([planned(1), drifted, planned(2)].map((text) => ["system", "campaign", text]));
    const activity = await getDb().activityEvent.findMany({ where: { projectId: project.id, type: "campaignChange" }, orderBy: { createdAt: "asc" } });
    expect(activity.map((a) => a.message)).toEqual(expect.arrayContaining([drifted, planned(2)]));

    expect(await forwardNoticesToSlack()).toBe(3);
    const posted = () => double.called("chat.postMessage").filter((c) => c.args.channel === slack.channelId).map((c) => c.args.text);
    expect(posted()).toEqual([planned(1), drifted, planned(2)]);
  });

  it("completion: \"Campaign complete!\" in the notices thread and in Slack", async () => {
    const fixture = await createTeamWithProject({ cooldownMs: 0, maxParallel: 1 });
    const slack = await slackTeam(double, undefined, fixture);
    await getDb().slackChannel.updateMany({ where: { projectId: fixture.project.id }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const { project, campaign } = await setUp({ tasks: [task("t1")] }, {}, { fixture });
    await drive(project.id, campaign.id, (c) => c.phase === "completed");
    const complete = `Campaign "${campaign.title}": Campaign complete!`;
    expect((await notices(project.id)).at(-1)).toEqual(["system", "campaign", complete]);
    await forwardNoticesToSlack();
    expect(double.called("chat.postMessage").filter((c) => c.args.channel === slack.channelId).map((c) => c.args.text).at(-1)).toBe(complete);
  });
});
