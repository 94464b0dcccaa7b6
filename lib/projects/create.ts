import { getDb } from "@/lib/db";
import { recordAudit, SYSTEM, type AuditBy } from "@/lib/audit/record";
import { planningKeyForBranch } from "@/lib/prompts/names";
import { slugify } from "@/lib/slug";
import { publishOutbox, recordOutbox } from "@/lib/queues";
import { announce } from "@/lib/events/publish";
import { projectInput, type ProjectInput } from "@/lib/projects/schema";
import { checkLocalRepository } from "@/lib/projects/repo-check";

async function uniqueSlug(teamId: string, name: string): Promise<string> {
  const base = slugify(name) || "project";
  const taken = new Set(
    (await getDb().project.findMany({ where: { teamId, slug: { startsWith: base } }, select: { slug: true } })).map((p) => p.slug),
  );
  for (let i = 1; ; i++) {
    const slug = i === 1 ? base : `${base}-${i}`;
    if (!taken.has(slug)) return slug;
  }
}

/** Creates a project with its settings and loop state, and schedules its tick. */
export async function createProject(teamId: string, raw: ProjectInput, settings: { loopEnabled?: boolean; plannerEnabled?: boolean; maxParallel?: number } = {}, by: AuditBy = SYSTEM) {
  const input = projectInput.parse(raw);
  // A missing folder, one that is no repository or a branch that is not there would only fail
  // the runs later (and a wrong branch would send work elsewhere): refused here, by field.
  const repo = input.repoKind === "local" ? await checkLocalRepository(teamId, input.repoPath!, input.baseBranch, { init: input.initRepository }) : null;
  const repoPath = repo?.repoPath ?? null;
  const slug = await uniqueSlug(teamId, input.name);
  // The project and the work order for its periodic tick commit together (the tick runs
  // only while the loop is not stopped; the outbox relay creates it if Redis is away).
  const { project, outbox } = await getDb().$transaction(async (tx) => {
    const project = await tx.project.create({
    data: {
      teamId,
      name: input.name,
      slug,
      repoKind: input.repoKind,
      repoPath,
      githubOwner: input.githubOwner,
      githubRepo: input.githubRepo,
      baseBranch: input.baseBranch,
      activeBranch: input.baseBranch,
      planningKey: planningKeyForBranch(input.baseBranch),
      settings: {
        create: {
          executorProfileId: input.executorProfileId,
          plannerProfileId: input.plannerProfileId,
          plannerEnabled: settings.plannerEnabled ?? Boolean(input.plannerProfileId),
          maxParallel: settings.maxParallel ?? 3,
        },
      },
      loopState: { create: { mode: settings.loopEnabled ? "running" : "stopped" } },
    },
    include: { settings: true },
    });
    await recordAudit({ teamId, by, action: "project.created", target: { type: "project", id: project.id }, after: { name: project.name, repoKind: project.repoKind, repoPath: project.repoPath, baseBranch: project.baseBranch, ...(repo?.created ? { repositoryCreated: true } : {}) } }, tx);
    return { project, outbox: await recordOutbox(tx, [{ kind: "schedule", projectId: project.id }]) };
  });
  // The team's open dashboards list it at once (every event re-reads the project list).
  await Promise.all([publishOutbox(outbox), announce(teamId, { type: "projectChange", projectId: project.id })]);
  return project;
}
