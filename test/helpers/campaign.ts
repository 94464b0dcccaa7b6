// A campaign half done, for the tick's campaign step: its first task done a minute ago (the
// project's last spawn then), its second waiting; one slot, a 10 s cooldown, the loop running.
import { getDb } from "@/lib/db";
import { addPrompt } from "./fixtures";
import { createBareProject } from "./runs";

export async function halfDoneCampaign() {
  const { project, profile } = await createBareProject();
  const db = getDb();
  const lastSpawnAt = new Date(Date.now() - 60_000);
  await db.projectSettings.update({ where: { projectId: project.id }, data: { spawnCooldownMs: 10_000, parallelEnabled: false, maxParallel: 1 } });
  await db.loopState.update({ where: { projectId: project.id }, data: { mode: "running", lastSpawnAt } });
  const campaign = await db.campaign.create({
    data: { projectId: project.id, title: "Notes", goal: "Write notes", phase: "executing", planVersion: 1, tasksTotal: 2, tasksCompleted: 1 },
  });
  const notes = await addPrompt(project.id, { number: 1, title: "notes", body: "x" });
  const index = await addPrompt(project.id, { number: 2, title: "index", body: "y", dependencies: [1] });
  await db.prompt.update({ where: { id: notes.id }, data: { campaignId: campaign.id, campaignPlan: 1, taskId: "notes", status: "done", completedAt: lastSpawnAt } });
  await db.prompt.update({ where: { id: index.id }, data: { campaignId: campaign.id, campaignPlan: 1, taskId: "index" } });
  /** A campaign run of the profile, ended (status, summary, error as given). */
  const endedRun = (data: { kind: "architect" | "reflector" | "executor"; status: "succeeded" | "failed" | "timed_out" | "cancelled"; summary?: string | null; error?: string | null; finishedAt?: Date }) =>
    getDb().run.create({ data: { projectId: project.id, campaignId: campaign.id, agentProfileId: profile.id, adapter: "demo", finishedAt: new Date(), ...data } });
  return { project, profile, campaign, index, lastSpawnAt, endedRun };
}

/** The tick's clock: the first reading (the campaign step's) `first` ms after `from`, every later one `later` ms after. */
export function clock(from: Date, first: number, later: number) {
  let readings = 0;
  return () => new Date(from.getTime() + (readings++ === 0 ? first : later));
}
