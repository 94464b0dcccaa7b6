import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { getDb } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { createApiToken, listApiTokens, revokeApiToken } from "@/lib/auth/api-tokens";
import { createRunToken, hashToken } from "@/lib/auth/tokens";
import { AccessError } from "@/lib/auth/access";
import { audits, createBareProject } from "./helpers/runs";

const now = new Date("2026-11-23T12:00:00.000Z");
const DAY = 86_400_000;

async function teamWithAdmin(role: Actor["role"] = "admin") {
  const fixture = await createBareProject();
  const user = await getDb().user.create({ data: { email: `admin-${fixture.team.slug}@example.test` } });
  const actor: Actor = { kind: "user", id: user.id, teamId: fixture.team.id, role, projectId: null };
  return { ...fixture, user, actor };
}

describe("API tokens", () => {
  it("creates a token shown once and stored hashed, with its expiry, creator and audit entry", async () => {
    const { team, project, user, actor } = await teamWithAdmin();
    const { token, apiToken } = await createApiToken(actor, { name: " CI ", role: "viewer", projectId: project.id, expiresInDays: 30 }, now);
    expect(token).toMatch(/^rm_api_[A-Za-z0-9_-]{43}$/);
    const row = await getDb().apiToken.findUniqueOrThrow({ where: { id: apiToken.id } });
    expect(row).toMatchObject({ teamId: team.id, projectId: project.id, name: "CI", role: "viewer", tokenHash: hashToken(token), prefix: token.slice(0, 12), createdById: user.id, runId: null, revokedAt: null });
    expect(row.expiresAt).toEqual(new Date(now.getTime() + 30 * DAY));
    expect(apiToken).toEqual({
      id: row.id, kind: "api", name: "CI", role: "viewer", prefix: token.slice(0, 12), projectId: project.id, projectName: project.name,
      lastUsedAt: null, expiresAt: row.expiresAt, revokedAt: null, createdAt: row.createdAt, active: true,
    });
    expect((await audits(team.id)).at(-1)).toEqual({
      action: "token.created", actorType: "user", targetType: "api_token", targetId: row.id, before: null,
      after: { kind: "api", name: "CI", role: "viewer", projectId: project.id, expiresAt: row.expiresAt!.toISOString(), prefix: token.slice(0, 12) },
    });
  });

  it("a token without an expiry or project, made by a token, has neither and no creator", async () => {
    const { team, actor } = await teamWithAdmin();
    const byToken: Actor = { ...actor, kind: "token", id: "tok-1" };
    const { apiToken } = await createApiToken(byToken, { name: "script" }, now);
    expect(apiToken).toMatchObject({ role: "operator", projectId: null, projectName: null, expiresAt: null, active: true });
    expect((await getDb().apiToken.findUniqueOrThrow({ where: { id: apiToken.id } })).createdById).toBeNull();
    expect((await audits(team.id)).at(-1)!.actorType).toBe("token");
  });

  it("refuses another team's or an archived project, naming the field, and creates nothing", async () => {
    const { team, project, actor } = await teamWithAdmin();
    const other = await createBareProject();
    const err = await createApiToken(actor, { name: "CI", projectId: other.project.id }, now).catch((e) => e);
    expect(err).toBeInstanceOf(ZodError);
    expect((err as ZodError).issues.map((i) => [i.code, i.path.join("."), i.message])).toEqual([["custom", "projectId", "is not a project of this team"]]);
    await getDb().project.update({ where: { id: project.id }, data: { archivedAt: now } });
    await expect(createApiToken(actor, { name: "CI", projectId: project.id }, now)).rejects.toBeInstanceOf(ZodError);
    expect(await getDb().apiToken.count({ where: { teamId: team.id } })).toBe(0);
  });

  it("is for admins of the whole team, who grant no more than they hold", async () => {
    const { actor } = await teamWithAdmin();
    const forbidden = (message: string) => new AccessError(403, message);
    await expect(createApiToken({ ...actor, role: "operator" }, { name: "x" }, now)).rejects.toThrow(forbidden("requires the admin role"));
    await expect(createApiToken(actor, { name: "x", role: "owner" }, now)).rejects.toThrow(forbidden("an admin cannot grant the owner role"));
    await expect(createApiToken({ ...actor, projectId: "p" }, { name: "x" }, now)).rejects.toThrow(forbidden("a project-scoped token cannot act on the whole team"));
    await expect(listApiTokens({ ...actor, role: "operator" })).rejects.toThrow(forbidden("requires the admin role"));
    await expect(listApiTokens({ ...actor, projectId: "p" })).rejects.toBeInstanceOf(AccessError);
    await expect(revokeApiToken({ ...actor, role: "viewer" }, "any")).rejects.toThrow(forbidden("requires the admin role"));
    await expect(revokeApiToken({ ...actor, projectId: "p" }, "any")).rejects.toThrow(forbidden("a project-scoped token cannot act on the whole team"));
  });

  it("lists the team's own tokens newest first, never run tokens or another team's, with whether each is active", async () => {
    const { team, project, actor } = await teamWithAdmin();
    const other = await teamWithAdmin();
    const old = await createApiToken(actor, { name: "old", expiresInDays: 1 }, new Date(now.getTime() - 2 * DAY));
    await getDb().apiToken.update({ where: { id: old.apiToken.id }, data: { createdAt: new Date(now.getTime() - 2 * DAY) } });
    const edge = await createApiToken(actor, { name: "edge", expiresInDays: 1 }, new Date(now.getTime() - DAY));
    await getDb().apiToken.update({ where: { id: edge.apiToken.id }, data: { createdAt: new Date(now.getTime() - DAY) } });
    const fresh = await createApiToken(actor, { name: "fresh", projectId: project.id }, now);
    await createApiToken(other.actor, { name: "theirs" }, now);
    await createRunToken({ id: "run-1", projectId: project.id, teamId: team.id }, 60_000);

    const listed = await listApiTokens(actor, now);
    expect(listed.map((t) => [t.name, t.active, t.projectName])).toEqual([["fresh", true, project.name], ["edge", false, null], ["old", false, null]]);
    expect(listed[0].id).toBe(fresh.apiToken.id);
    expect((await listApiTokens(actor, new Date(now.getTime() - DAY - 1)))[1]).toMatchObject({ name: "edge", active: true });
  });

  it("revokes once: the second revoke and another team's token change nothing", async () => {
    const { team, project, actor } = await teamWithAdmin();
    const other = await teamWithAdmin();
    const { apiToken } = await createApiToken(actor, { name: "CI", projectId: project.id }, now);
    const theirs = await createApiToken(other.actor, { name: "theirs" }, now);
    await createRunToken({ id: "run-2", projectId: project.id, teamId: team.id }, 60_000);
    const runToken = await getDb().apiToken.findUniqueOrThrow({ where: { runId: "run-2" } });

    await expect(revokeApiToken(actor, theirs.apiToken.id, now)).rejects.toThrow(new AccessError(404, "token not found"));
    await expect(revokeApiToken(actor, runToken.id, now)).rejects.toThrow(new AccessError(404, "token not found"));
    expect(await revokeApiToken(actor, apiToken.id, now)).toMatchObject({ id: apiToken.id, revokedAt: now, active: false, projectName: project.name });
    const entries = (await audits(team.id)).length;
    expect((await audits(team.id)).at(-1)).toEqual({ action: "token.revoked", actorType: "user", targetType: "api_token", targetId: apiToken.id, before: { revokedAt: null }, after: { revokedAt: now.toISOString() } });
    const later = new Date(now.getTime() + DAY);
    expect(await revokeApiToken(actor, apiToken.id, later)).toMatchObject({ revokedAt: now, active: false, projectName: project.name });
    expect(await audits(team.id)).toHaveLength(entries);
    expect((await getDb().apiToken.findUniqueOrThrow({ where: { id: theirs.apiToken.id } })).revokedAt).toBeNull();
  });
});
