import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { postNotice } from "@/lib/threads/notices";
import { forwardNoticesToSlack } from "@/lib/slack/system-notices";
import { slackTeam, startSlackDouble } from "./helpers/slack-fixtures";

const double = await startSlackDouble();
afterAll(() => double.stop());

const posted = (channel: string) => double.called("chat.postMessage").filter((c) => c.args.channel === channel).map((c) => c.args.text);

// Budget alerts reach the team where it talks: the notices thread, and Slack where it is connected.
describe("Ringmaster's notices in Slack", () => {
  it("forwards each notice of a project to its mapped channel once; one written before the mapping stays home", async () => {
    const t = await slackTeam(double);
    await getDb().slackChannel.updateMany({ where: { projectId: t.project.id }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const old = await postNotice(t.project.id, "Budget alert: old news", "budget");
    await getDb().turn.update({ where: { id: old!.id }, data: { createdAt: new Date(Date.now() - 120_000) } });
    await postNotice(t.project.id, "Budget alert: $0.80 spent, 80 % of the project's daily budget of $1.00", "budget");
    await postNotice(t.project.id, "Budget alert: $0.90 spent, 90 % of the project's daily budget of $1.00", "budget");

    expect(await forwardNoticesToSlack()).toBe(2);
    expect(await forwardNoticesToSlack()).toBe(0);
    expect(posted(t.channelId)).toEqual([
      "Budget alert: $0.80 spent, 80 % of the project's daily budget of $1.00",
      "Budget alert: $0.90 spent, 90 % of the project's daily budget of $1.00",
    ]);
  });

  it("a post Slack refused goes again at the next pass, and a project without a channel sends nothing", async () => {
    const t = await slackTeam(double);
    const other = await slackTeam(double);
    await getDb().slackChannel.deleteMany({ where: { projectId: other.project.id } });
    await postNotice(t.project.id, "Budget alert: $1.00 spent, 100 % of the team's daily budget of $1.00", "budget");
    await postNotice(other.project.id, "Budget alert: nobody hears this in Slack", "budget");
    double.failNext("chat.postMessage", "ratelimited");
    await expect(forwardNoticesToSlack()).rejects.toThrow();
    expect(await forwardNoticesToSlack()).toBe(1);
    // The double records the refused call too: refused once, then taken.
    expect(posted(t.channelId)).toEqual(Array(2).fill("Budget alert: $1.00 spent, 100 % of the team's daily budget of $1.00"));
    expect(await forwardNoticesToSlack()).toBe(0);
    expect(posted(other.channelId)).toEqual([]);
  });
});
