import { getDb, type PromptModel as Prompt, type RunModel as Run } from "@/lib/db";
import { architectInput, reflectorInput, workerInput } from "@/lib/campaigns/inputs";
import { buildRepoMap } from "@/lib/campaigns/repo-map";
import { parsePlan, type Plan } from "@/lib/campaigns/plan";
import type { RunOutcome } from "@/lib/runs/complete";

/** Whether this run belongs to seed 002's loop (its input and its end differ from a plain prompt's). */
export const isCampaignRun = (run: Pick<Run, "kind" | "campaignId">) => Boolean(run.campaignId) && (run.kind === "architect" || run.kind === "reflector");

/**
 * The input of a campaign's run, built from its worktree and the campaign's state: the architect
 * gets goal, repo map and last failure log; the reflector the goal and the completed tasks; a
 * worker only its task and the current contents of the files the task names. Null: not a campaign run.
 */
export async function campaignRunInput(run: Pick<Run, "kind" | "campaignId">, prompt: Prompt | null, worktree: string, log: (line: string) => void): Promise<string | null> {
  const db = getDb();
  if (prompt?.campaignId && prompt.taskId) {
    const campaign = await db.campaign.findUnique({ where: { id: prompt.campaignId } });
    const task = (campaign?.plan as Plan | null)?.tasks.find((t) => t.id === prompt.taskId);
    return workerInput({ taskId: prompt.taskId, title: prompt.title, body: prompt.body, files: task?.files ?? [] }, worktree);
  }
  if (!isCampaignRun(run)) return null;
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: run.campaignId! } });
  if (run.kind === "architect") {
    const map = await buildRepoMap(worktree);
    // The log says what the architect was given (not the map itself: it is rebuilt from the commit).
    log(`Architect input: goal (${campaign.goal.length} characters), repo map of ${map.commit.slice(0, 12)} (${Buffer.byteLength(map.text)} bytes)`);
    if (campaign.failureLog) for (const line of `Last failure log given to the architect:\n${campaign.failureLog}`.split("\n")) log(line);
    return architectInput(campaign, map.text);
  }
  const completed = await db.prompt.findMany({
    where: { campaignId: campaign.id, campaignPlan: campaign.planVersion, status: "done" }, orderBy: { number: "asc" }, select: { taskId: true, title: true },
  });
  const milestone = campaign.milestones.length ? Math.max(...campaign.milestones) : 0;
  return reflectorInput(campaign, milestone, completed.map((p) => ({ taskId: p.taskId ?? "?", title: p.title })));
}

/**
 * An architect whose answer is not a valid plan failed: the validation errors go to its log and
 * its error, and the campaign retries it like any failed run.
 */
export function checkArchitectAnswer(run: Pick<Run, "kind" | "campaignId">, outcome: RunOutcome, log: (line: string) => void): RunOutcome {
  if (run.kind !== "architect" || !run.campaignId || outcome.status !== "succeeded") return outcome;
  const parsed = parsePlan(outcome.summary ?? "");
  if (parsed.ok) return outcome;
  log("The plan is invalid:");
  for (const e of parsed.errors) log(`  ${e}`);
  const error = `invalid plan: ${parsed.errors[0]}${parsed.errors.length > 1 ? ` (and ${parsed.errors.length - 1} more)` : ""}`;
  return { ...outcome, status: "failed", error, failureLog: ["invalid plan:", ...parsed.errors].join("\n") };
}

/** Seed 002's commit per task: `feat(<task id>): <description>`. */
export const campaignCommitTitle = (prompt: Prompt | null) => (prompt?.campaignId && prompt.taskId ? `feat(${prompt.taskId}): ${prompt.title}` : null);
