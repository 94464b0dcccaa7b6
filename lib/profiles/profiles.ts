import { z } from "zod";
import { getDb, Prisma } from "@/lib/db";
import { recordAudit, SYSTEM, type AuditBy } from "@/lib/audit/record";
import { AccessError } from "@/lib/auth/access";
import { DomainError } from "@/lib/errors";
import { ADAPTERS } from "@/lib/profiles/adapters";
import { quotedPlaceholder } from "@/lib/agents/shell";
import { conflictingArg, permissionModesOf } from "@/lib/agents/permission-modes";
import { getEnv, inheritedProcessEnv, isServerOnlyVariable } from "@/lib/env";
import { CLI_SOURCES, whichOn } from "@/lib/agents/installed";
import { isLoaderVariable } from "@/lib/sandbox/bwrap";
import { silentAfterMs } from "@/lib/routing/agents";
import { runnerClis } from "@/lib/runners/agents";
import { ceilingShape, wallTimeShape } from "@/lib/spend/ceiling-input";
import { unenforceable } from "@/lib/spend/ceilings";


export const profileInput = z.object({
  name: z.string().trim().min(1, "is required").max(60, "must be at most 60 characters"),
  adapter: z.enum(ADAPTERS, { error: `must be one of ${ADAPTERS.join(", ")}` }),
  commandTemplate: z.string().trim().max(2000, "must be at most 2000 characters").nullable().optional().transform((v) => v || null),
  model: z.string().trim().max(100).nullable().optional().transform((v) => v || null),
  fallbackModel: z.string().trim().max(100).nullable().optional().transform((v) => v || null),
  completionSignal: z.string().trim().max(200).nullable().optional().transform((v) => v || null),
  envAllowList: z.array(z.string().regex(/^[A-Z_][A-Z0-9_]*$/, "names environment variables like API_KEY")
    .refine((name) => !isServerOnlyVariable(name), { message: "is one of Ringmaster's own variables and is never passed to an agent" })
    .refine((name) => !isLoaderVariable(name), { message: "is read by the system's program loader, outside the sandbox, and is never passed to an agent" })).max(50).default([]),
  extraArgs: z.array(z.string().max(500)).max(50).default([]),
  permissionMode: z.string().trim().max(40).nullable().optional().transform((v) => v || null),
  ...ceilingShape,
  ...wallTimeShape,
}).superRefine((v, ctx) => {
  const blind = unenforceable(v.adapter, v);
  if (blind) ctx.addIssue({ code: "custom", path: [blind.field], message: blind.message });
  if (v.adapter === "shell" && !v.commandTemplate) {
    ctx.addIssue({ code: "custom", path: ["commandTemplate"], message: "is required for the shell adapter, e.g. my-agent {prompt}" });
  }
  permissionIssues(v, ctx);
  const quoted = v.commandTemplate ? quotedPlaceholder(v.commandTemplate) : null;
  if (quoted) {
    ctx.addIssue({
      code: "custom", path: ["commandTemplate"],
      message: `must not put ${quoted} in quotes: Ringmaster quotes the value itself, and inside quotes the shell could run commands written in the prompt. Write it bare, e.g. my-agent --task ${quoted}`,
    });
  }
});

export type ProfileInput = z.input<typeof profileInput>;

function permissionIssues(v: { adapter: string; permissionMode: string | null; extraArgs: string[] }, ctx: z.RefinementCtx) {
  const modes = permissionModesOf(v.adapter);
  if (v.permissionMode && !modes?.modes.some((m) => m.value === v.permissionMode)) {
    const message = modes ? `must be one of ${modes.modes.map((m) => m.value).join(", ")} for the ${v.adapter} adapter` : `is not a setting of the ${v.adapter} adapter; leave it empty`;
    ctx.addIssue({ code: "custom", path: ["permissionMode"], message });
  }
  const repeated = conflictingArg(v.adapter, v.extraArgs);
  if (repeated) {
    ctx.addIssue({ code: "custom", path: ["extraArgs", v.extraArgs.indexOf(repeated)], message: `must not set the permission mode (${repeated}): choose it in Permission mode, the CLI refuses it twice` });
  }
}

/** The team's profiles; for a project-scoped caller (a token, a run) only those its project uses. */
export const listProfiles = (teamId: string, projectId?: string | null) => getDb().agentProfile.findMany({
  where: { teamId, ...(projectId ? { OR: [{ executorFor: { some: { projectId } } }, { plannerFor: { some: { projectId } } }] } : {}) },
  orderBy: { name: "asc" },
});

/** The team's profiles by name, for pickers. */
export const listProfileChoices = (teamId: string) =>
  getDb().agentProfile.findMany({ where: { teamId }, select: { id: true, name: true, adapter: true }, orderBy: { name: "asc" } });

/** A new project's profile unless a person picks another: the team's first, the one it set up to work with. */
export const defaultProfileId = async (teamId: string) =>
  (await getDb().agentProfile.findFirst({ where: { teamId }, select: { id: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }))?.id ?? null;

function nameTaken(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
    throw new z.ZodError([{ code: "custom", path: ["name"], message: "is already used by another profile", input: null }]);
  }
  throw err;
}

/**
 * Whether the profile's CLI can run somewhere: on this server's agent PATH (where the workers
 * start it), or on one of the team's online runners, which say at registration which CLIs they
 * have. Nowhere: refused, naming the field. Only on runners: saved, with a warning that says
 * which. Null: nothing to say (found here, or an adapter without a CLI of its own).
 */
export async function missingCliWarning(teamId: string, adapter: string, now = new Date()): Promise<string | null> {
  const source = CLI_SOURCES[adapter];
  if (!source || whichOn(source.command, inheritedProcessEnv(["PATH"]).PATH ?? "")) return null;
  const seenSince = new Date(now.getTime() - silentAfterMs(getEnv().LEASE_TTL_MS));
  const online = await getDb().agent.findMany({ where: { teamId, status: { not: "offline" }, lastSeenAt: { gt: seenSince } }, select: { name: true, clis: true }, orderBy: { name: "asc" } });
  const having = online.filter((r) => runnerClis(r).some((c) => c.adapter === adapter)).map((r) => r.name);
  const missing = `runs \`${source.command}\`, which is not installed on this server`;
  if (having.length === 0) {
    const runners = online.length === 0 ? "" : ` nor on any online runner (${online.length === 1 ? "1 runner is" : `${online.length} runners are`} online without it)`;
    throw new z.ZodError([{ code: "custom", path: ["adapter"], message: `${missing}${runners}: install it with \`${source.install}\`, or connect a runner that has it`, input: adapter }]);
  }
  return `${missing}: only ${having.length === 1 ? "the runner" : "the runners"} ${having.join(", ")} can run this profile`;
}

export async function createProfile(teamId: string, raw: unknown, by: AuditBy = SYSTEM) {
  const data = profileInput.parse(raw);
  const warning = await missingCliWarning(teamId, data.adapter);
  const profile = await getDb().agentProfile.create({ data: { ...data, teamId } }).catch(nameTaken);
  await recordAudit({ teamId, by, action: "profile.created", target: { type: "agentProfile", id: profile.id }, after: data });
  return { profile, warnings: warning ? { adapter: warning } : {} };
}

export async function updateProfile(teamId: string, id: string, raw: unknown, by: AuditBy = SYSTEM) {
  const data = profileInput.parse(raw);
  const before = await getDb().agentProfile.findFirst({ where: { id, teamId } });
  if (!before) throw new AccessError(404, "agent profile not found");
  const warning = await missingCliWarning(teamId, data.adapter);
  const n = await getDb().agentProfile.updateMany({ where: { id, teamId }, data }).catch(nameTaken);
  if (n.count === 0) throw new AccessError(404, "agent profile not found");
  await recordAudit({ teamId, by, action: "profile.updated", target: { type: "agentProfile", id }, before, after: data });
  return { profile: await getDb().agentProfile.findUniqueOrThrow({ where: { id } }), warnings: warning ? { adapter: warning } : {} };
}

/** Deletes a profile no live project uses; past runs keep their record without it. */
export async function deleteProfile(teamId: string, id: string, by: AuditBy = SYSTEM) {
  const db = getDb();
  const profile = await db.agentProfile.findFirst({ where: { id, teamId } });
  if (!profile) throw new AccessError(404, "agent profile not found");
  const users = await db.project.findMany({
    where: { teamId, archivedAt: null, settings: { OR: [{ executorProfileId: id }, { plannerProfileId: id }] } }, select: { name: true }, orderBy: { name: "asc" },
  });
  if (users.length) {
    throw new DomainError(409, "in_use", `${profile.name} is used by ${users.map((u) => u.name).join(", ")}: choose another profile in their settings first`);
  }
  await db.agentProfile.delete({ where: { id } });
  await recordAudit({ teamId, by, action: "profile.deleted", target: { type: "agentProfile", id }, before: { name: profile.name, adapter: profile.adapter } });
}
