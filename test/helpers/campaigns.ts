import { getDb, type CampaignModel } from "@/lib/db";
import { createCampaign } from "@/lib/campaigns/create";
import { createTeamWithProject } from "./fixtures";
import { tickAndRun } from "./run-once";

// The demo agent plays every role: the goal carries the architect's plan and the reflector's
// verdicts as scripted answers (bin/demo-agent.mjs, ```answer blocks), and each task's step hints
// carry the worker's edits.
export type Verdict = { aligned: boolean; reason: string };
export const task = (id: string, extra: Record<string, unknown> = {}) => ({
  id, description: `Write ${id}`, files: [`${id}.txt`], stepHints: [`\`\`\`file ${id}.txt\n${id} done\n\`\`\``], exitCriteria: [`${id}.txt exists`], ...extra,
});
export function goal(plan: unknown, verdicts: Record<number, Verdict> = {}) {
  const answer = (header: string, body: unknown) => [`\`\`\`\`answer ${header}`, typeof body === "string" ? body : JSON.stringify(body), "````"];
  return [
    "Ship the feature in small steps.",
    ...answer("architect", plan),
    ...Object.entries(verdicts).flatMap(([m, v]) => answer(`reflector at Milestone: ${m} %`, v)),
    ...answer("reflector", { aligned: true, reason: "on track" }),
  ].join("\n");
}

type Fixture = Awaited<ReturnType<typeof createTeamWithProject>>;

/** A project whose demo agent alternates model-a and model-b, with a campaign of that goal (no backoff unless `cooldownMs`). */
export async function setUp(planOrAnswer: unknown, verdicts?: Record<number, Verdict>, opts: { fixture?: Fixture; cooldownMs?: number } = {}) {
  const fixture = opts.fixture ?? await createTeamWithProject({ cooldownMs: opts.cooldownMs ?? 0, maxParallel: 1 });
  await getDb().agentProfile.update({ where: { id: fixture.profile.id }, data: { model: "model-a", fallbackModel: "model-b" } });
  const actor = { kind: "user" as const, id: fixture.user.id, teamId: fixture.team.id, role: "owner" as const };
  const campaign = await createCampaign(actor as never, fixture.project, { goal: goal(planOrAnswer, verdicts) });
  return { ...fixture, campaign };
}

/** Plays the workers until the campaign satisfies `until` (each step: one tick, its run, its merge). */
export async function drive(projectId: string, campaignId: string, until: (c: CampaignModel) => boolean, maxSteps = 40, now?: () => Date) {
  for (let i = 0; i < maxSteps; i++) {
    const c = await getDb().campaign.findUniqueOrThrow({ where: { id: campaignId } });
    if (until(c)) return c;
    await tickAndRun(projectId, now);
  }
  throw new Error(`campaign ${campaignId} did not get there in ${maxSteps} steps`);
}

export const runsOf = (campaignId: string, kind: "architect" | "reflector") =>
  getDb().run.findMany({ where: { campaignId, kind }, orderBy: { queuedAt: "asc" } });
export const logOf = async (runId: string) => (await getDb().runLog.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
export const events = async (campaignId: string) => (await getDb().campaignEvent.findMany({ where: { campaignId }, orderBy: { createdAt: "asc" } })).map((e) => [e.kind, e.message]);

