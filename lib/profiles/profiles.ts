import { z } from "zod";
import { getDb, Prisma } from "@/lib/db";
import { recordAudit, SYSTEM, type AuditBy } from "@/lib/audit/record";
import { AccessError } from "@/lib/teams/membership";
import { ADAPTERS } from "@/lib/profiles/adapters";


export const profileInput = z.object({
  name: z.string().trim().min(1, "is required").max(60, "must be at most 60 characters"),
  adapter: z.enum(ADAPTERS, { error: `must be one of ${ADAPTERS.join(", ")}` }),
  commandTemplate: z.string().trim().max(2000, "must be at most 2000 characters").nullable().optional().transform((v) => v || null),
  model: z.string().trim().max(100).nullable().optional().transform((v) => v || null),
  fallbackModel: z.string().trim().max(100).nullable().optional().transform((v) => v || null),
  completionSignal: z.string().trim().max(200).nullable().optional().transform((v) => v || null),
  envAllowList: z.array(z.string().regex(/^[A-Z_][A-Z0-9_]*$/, "names environment variables like API_KEY")).max(50).default([]),
  extraArgs: z.array(z.string().max(500)).max(50).default([]),
}).superRefine((v, ctx) => {
  if (v.adapter === "shell" && !v.commandTemplate) {
    ctx.addIssue({ code: "custom", path: ["commandTemplate"], message: "is required for the shell adapter, e.g. my-agent {prompt}" });
  }
});

export type ProfileInput = z.input<typeof profileInput>;

export const listProfiles = (teamId: string) => getDb().agentProfile.findMany({ where: { teamId }, orderBy: { name: "asc" } });

function nameTaken(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
    throw new z.ZodError([{ code: "custom", path: ["name"], message: "is already used by another profile", input: null }]);
  }
  throw err;
}

export async function createProfile(teamId: string, raw: unknown, by: AuditBy = SYSTEM) {
  const data = profileInput.parse(raw);
  const profile = await getDb().agentProfile.create({ data: { ...data, teamId } }).catch(nameTaken);
  await recordAudit({ teamId, by, action: "profile.created", target: { type: "agentProfile", id: profile.id }, after: data });
  return profile;
}

export async function updateProfile(teamId: string, id: string, raw: unknown, by: AuditBy = SYSTEM) {
  const data = profileInput.parse(raw);
  const before = await getDb().agentProfile.findFirst({ where: { id, teamId } });
  const n = await getDb().agentProfile.updateMany({ where: { id, teamId }, data }).catch(nameTaken);
  if (n.count === 0) throw new AccessError(404, "agent profile not found");
  await recordAudit({ teamId, by, action: "profile.updated", target: { type: "agentProfile", id }, before, after: data });
  return getDb().agentProfile.findUniqueOrThrow({ where: { id } });
}
