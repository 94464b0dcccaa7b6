import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { getDb } from "@/lib/db";
import { createDemoRepo } from "@/lib/demo/repo";
import { createProject } from "@/lib/projects/create";
import { repoRoots } from "@/lib/projects/repo-path";
import type { Actor } from "@/lib/auth/actor";

export async function createTeamWithDemoProject(opts: { maxParallel: number; loopEnabled?: boolean }) {
  const db = getDb();
  const slug = `bench-${Math.random().toString(36).slice(2, 8)}`;
  const team = await db.team.create({ data: { name: slug, slug } });
  const profile = await db.agentProfile.create({ data: { teamId: team.id, name: "demo", adapter: "demo" } });
  mkdirSync(repoRoots()[0], { recursive: true });
  const repoPath = createDemoRepo(join(mkdtempSync(join(repoRoots()[0], "bench-")), "repo"));
  const project = await createProject(team.id, { name: slug, repoKind: "local", repoPath, executorProfileId: profile.id }, { loopEnabled: opts.loopEnabled ?? true, maxParallel: opts.maxParallel });
  await db.projectSettings.update({ where: { projectId: project.id }, data: { spawnCooldownMs: 0 } });
  const actor: Actor = { kind: "user", id: "bench", teamId: team.id, role: "owner", projectId: null };
  return { team, project, actor };
}
