import { z } from "zod";
import { getDb, type ApiTokenModel as ApiToken } from "@/lib/db";
import { issueSecret } from "@/lib/auth/tokens";
import { requireRole, requireTeamScope, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AccessError, requireMayGrant, roleField } from "@/lib/auth/access";
import { wholeNumber } from "@/lib/validation/numbers";

// A runner token (rm_runner_…) opens only the runner API; its role is not used anywhere else.
export const tokenKinds = ["api", "runner"] as const;

export const tokenInput = z.object({
  kind: z.enum(tokenKinds, { error: "must be api or runner" }).default("api"),
  name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  role: roleField.default("operator"),
  projectId: z.string().trim().optional().transform((v) => v || undefined),
  // A form's empty field means "never"; a union with "" would hide the number's own message.
  expiresInDays: z.preprocess((v) => (v === "" ? undefined : v), wholeNumber(1, 365, " days").optional()),
});
export type TokenInput = z.input<typeof tokenInput>;

const view = (t: ApiToken & { project?: { name: string } | null }, now = new Date()) => ({
  id: t.id, kind: t.kind, name: t.name, role: t.role, prefix: t.prefix, projectId: t.projectId, projectName: t.project?.name ?? null,
  lastUsedAt: t.lastUsedAt, expiresAt: t.expiresAt, revokedAt: t.revokedAt, createdAt: t.createdAt,
  active: !t.revokedAt && (!t.expiresAt || t.expiresAt > now),
});
export type ApiTokenView = ReturnType<typeof view>;

/** A token for CI or a script, or a runner token for a remote runner. The plaintext is returned once and never stored. */
export async function createApiToken(actor: Actor, raw: TokenInput, now = new Date()) {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const input = tokenInput.parse(raw);
  requireMayGrant(actor, input.role);
  const db = getDb();
  if (input.projectId && !(await db.project.findFirst({ where: { id: input.projectId, teamId: actor.teamId, archivedAt: null } }))) {
    throw new z.ZodError([{ code: "custom", path: ["projectId"], message: "is not a project of this team", input: input.projectId }]);
  }
  const { token, prefix, tokenHash } = issueSecret(input.kind);
  const row = await db.apiToken.create({
    data: {
      kind: input.kind, teamId: actor.teamId, projectId: input.projectId, name: input.name, role: input.role, tokenHash, prefix,
      createdById: actor.kind === "user" ? actor.id : null,
      expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
    },
    include: { project: { select: { name: true } } },
  });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "token.created", target: { type: "api_token", id: row.id }, after: { kind: row.kind, name: row.name, role: row.role, projectId: row.projectId, expiresAt: row.expiresAt, prefix } });
  return { token, apiToken: view(row, now) };
}

export async function listApiTokens(actor: Actor, now = new Date()): Promise<ApiTokenView[]> {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const rows = await getDb().apiToken.findMany({
    where: { teamId: actor.teamId, runId: null }, include: { project: { select: { name: true } } }, orderBy: { createdAt: "desc" },
  });
  return rows.map((r) => view(r, now));
}

export async function revokeApiToken(actor: Actor, id: string, now = new Date()): Promise<ApiTokenView> {
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const db = getDb();
  const row = await db.apiToken.findFirst({ where: { id, teamId: actor.teamId, runId: null }, include: { project: { select: { name: true } } } });
  if (!row) throw new AccessError(404, "token not found");
  if (row.revokedAt) return view(row, now);
  const updated = await db.apiToken.update({ where: { id }, data: { revokedAt: now }, include: { project: { select: { name: true } } } });
  await recordAudit({ teamId: actor.teamId, by: actor, action: "token.revoked", target: { type: "api_token", id }, before: { revokedAt: null }, after: { revokedAt: now } });
  return view(updated, now);
}
