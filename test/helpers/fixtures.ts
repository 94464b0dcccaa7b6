import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { getDb, type TeamRole } from "@/lib/db";
import { restartDryLoop } from "@/lib/activity/change";
import { syncTickScheduler } from "@/lib/queues/outbox";
import { createDemoRepo } from "@/lib/demo/repo";
import { createProject } from "@/lib/projects/create";

/** A fresh path for a repository under the configured roots (test/helpers/setup-file.ts sets REPO_ROOTS). */
export function tempRepoPath(name = "repo", root = process.env.REPO_ROOTS!.split(":")[0]): string {
  return join(mkdtempSync(join(root, "r-")), name);
}

/** A team with an owner, a demo-agent profile and a project on a fresh local repository. */
export async function createTeamWithProject(opts: { maxParallel?: number; loopEnabled?: boolean; cooldownMs?: number } = {}) {
  const db = getDb();
  const suffix = Math.random().toString(36).slice(2, 8);
  const user = await db.user.create({ data: { email: `owner-${suffix}@example.test` } });
  const team = await db.team.create({
    data: { name: `Team ${suffix}`, slug: `team-${suffix}`, memberships: { create: { userId: user.id, role: "owner" } } },
  });
  const profile = await db.agentProfile.create({ data: { teamId: team.id, name: "demo", adapter: "demo" } });
  const repoPath = createDemoRepo(tempRepoPath());
  const project = await createProject(
    team.id,
    { name: `Project ${suffix}`, repoKind: "local", repoPath, baseBranch: "main", executorProfileId: profile.id },
    { loopEnabled: opts.loopEnabled ?? true, maxParallel: opts.maxParallel ?? 2 },
  );
  if (opts.cooldownMs !== undefined) {
    await db.projectSettings.update({ where: { projectId: project.id }, data: { spawnCooldownMs: opts.cooldownMs } });
  }
  return { user, team, profile, project, repoPath };
}

/** A new person in the team with the given role; returns the membership. */
export async function addMember(teamId: string, role: TeamRole) {
  const user = await getDb().user.create({ data: { email: `member-${Math.random().toString(36).slice(2, 10)}@example.test` } });
  return getDb().membership.create({ data: { teamId, userId: user.id, role } });
}

export async function addPrompt(projectId: string, p: { number: number; title: string; body: string; priority?: number; dependencies?: number[] }) {
  const project = await getDb().project.findUniqueOrThrow({ where: { id: projectId } });
  const prompt = await getDb().prompt.create({
    data: { projectId, planningKey: project.planningKey, priority: p.priority ?? 3, dependencies: p.dependencies ?? [], number: p.number, title: p.title, body: p.body },
  });
  // As createPrompt does: new work starts a loop that stopped only because its queue ran dry.
  if (await restartDryLoop(getDb(), projectId)) await syncTickScheduler(projectId);
  return prompt;
}

export async function waitUntil<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until a counter reaches its target, failing only when it stops moving: a loaded machine may
 * take any time for the whole, but a stall of `stallMs` without one step forward is a real hang.
 */
export async function waitForCount(what: string, count: () => Promise<number>, target: number, stallMs = 120_000): Promise<void> {
  let last = -1;
  let movedAt = Date.now();
  for (;;) {
    const now = await count();
    if (now >= target) return;
    if (now !== last) { last = now; movedAt = Date.now(); }
    if (Date.now() - movedAt > stallMs) throw new Error(`stalled waiting for ${what}: ${now} of ${target}, no progress for ${stallMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The most runs holding a slot at once; a slot is held from the claim (queuedAt) to the end. */
export function peakConcurrency(runs: ReadonlyArray<{ queuedAt: Date; finishedAt: Date | null }>): number {
  const events = runs.flatMap((r) => [{ t: r.queuedAt.getTime(), d: +1 }, { t: (r.finishedAt ?? new Date()).getTime(), d: -1 }])
    .sort((a, b) => a.t - b.t || a.d - b.d);
  let live = 0;
  let peak = 0;
  for (const e of events) peak = Math.max(peak, (live += e.d));
  return peak;
}
