import { getDb } from "@/lib/db";
import { createRunToken } from "@/lib/auth/tokens";
import { teamStreamKey, type TeamEvent } from "@/lib/events/streams";
import { getQueue, type QueueName } from "@/lib/queues";
import { getRedis } from "@/lib/redis/connections";
import { claimPromptForRun } from "@/lib/runs/claim";
import { addPrompt } from "./fixtures";

/**
 * A team with a stopped project and a demo profile, without a repository or a tick schedule:
 * the fast fixture for lifecycle tests that never reach git.
 */
export async function createBareProject() {
  const db = getDb();
  const suffix = Math.random().toString(36).slice(2, 8);
  const team = await db.team.create({ data: { name: `Team ${suffix}`, slug: `team-${suffix}` } });
  const profile = await db.agentProfile.create({ data: { teamId: team.id, name: "demo", adapter: "demo" } });
  const project = await db.project.create({
    data: {
      teamId: team.id, name: `Project ${suffix}`, slug: `project-${suffix}`, repoKind: "local", baseBranch: "main", activeBranch: "main",
      planningKey: "main", settings: { create: { executorProfileId: profile.id } }, loopState: { create: { mode: "stopped" } },
    },
  });
  return { team, profile, project };
}

/**
 * A project with one prompt claimed and its run live (running, leased by `worker-a`, with
 * a run token, the spawn cooldown set), as a worker leaves it while the agent works.
 */
export async function liveRun(opts: { maxAttempts?: number; attempts?: number; leaseExpiresAt?: Date } = {}) {
  const fixture = await createBareProject();
  const { project, profile } = fixture;
  const added = await addPrompt(project.id, { number: 4, title: "Add search", body: "" });
  await getDb().prompt.update({ where: { id: added.id }, data: { maxAttempts: opts.maxAttempts ?? 3, attempts: opts.attempts ?? 0 } });
  const claimed = await claimPromptForRun({
    projectId: project.id, promptId: added.id, profile, routing: {}, now: new Date(), limits: { maxExecutors: 5, cooldownMs: 0 },
  });
  const run = await getDb().run.update({
    where: { id: claimed!.run.id },
    data: { status: "running", workerId: "worker-a", startedAt: new Date(), leaseExpiresAt: opts.leaseExpiresAt ?? new Date(Date.now() + 60_000) },
  });
  await createRunToken({ id: run.id, projectId: project.id, teamId: fixture.team.id }, 60_000);
  return { ...fixture, run, prompt: await getDb().prompt.findUniqueOrThrow({ where: { id: added.id } }) };
}

/** A run without a prompt (the planner), live like `liveRun`'s. */
export async function livePlannerRun(projectId: string, profileId: string) {
  return getDb().run.create({
    data: { projectId, kind: "planner", status: "running", agentProfileId: profileId, adapter: "demo", workerId: "worker-a", leaseExpiresAt: new Date(Date.now() + 60_000) },
  });
}

/** Every job waiting in a queue but the periodic ticks, as [job id, data]. */
export async function queuedJobs(name: QueueName) {
  const jobs = await getQueue(name).getJobs(["waiting", "delayed", "prioritized", "active"]);
  return jobs.filter((j) => j.name !== "scheduled").map((j) => [j.id, j.data] as const);
}

export async function emptyQueues() {
  await Promise.all((["tick", "spawn", "merge"] as const).map((q) => getQueue(q).obliterate({ force: true })));
}

/** The events announced on a team's stream, oldest first. */
export async function announced(teamId: string): Promise<TeamEvent[]> {
  const entries = await getRedis("reader").xrange(teamStreamKey(teamId), "-", "+");
  return entries.map(([, fields]) => JSON.parse(fields[1]) as TeamEvent);
}

export async function activity(projectId: string) {
  const rows = await getDb().activityEvent.findMany({ where: { projectId }, orderBy: { id: "asc" } });
  return rows.map((r) => ({ type: r.type, message: r.message, data: r.data }));
}

export async function audits(teamId: string) {
  const rows = await getDb().auditEvent.findMany({ where: { teamId }, orderBy: { id: "asc" } });
  return rows.map((r) => ({ action: r.action, actorType: r.actorType, targetType: r.targetType, targetId: r.targetId, before: r.before, after: r.after }));
}

export const tokenOf = (runId: string) => getDb().apiToken.findUniqueOrThrow({ where: { runId } });
export const loopStateOf = (projectId: string) => getDb().loopState.findUniqueOrThrow({ where: { projectId } });
