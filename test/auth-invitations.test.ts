import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { actorForToken } from "@/lib/auth/actor";
import { checkCredentials } from "@/lib/auth/credentials";
import { acceptInvitation, InvitationSignInError } from "@/lib/teams/accept";
import { hashPassword } from "@/lib/auth/password";
import { getInvitation } from "@/lib/teams/invitations";
import { GET as listInvitations, POST as postInvitation } from "@/app/api/invitations/route";
import { DELETE as revoke } from "@/app/api/invitations/[id]/route";
import { GET as listMembers } from "@/app/api/team/members/route";
import { PATCH as patchMember, DELETE as deleteMember } from "@/app/api/team/members/[id]/route";
import { addMember, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };

async function invite(token: string, body: unknown) {
  const res = await postInvitation(request("POST", "/api/invitations", token, body), noParams);
  return { status: res.status, body: await res.json() };
}

describe("invitations", () => {
  it("an admin invites for a role; the link creates an account in that team, once", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const created = await invite(admin, { role: "operator", expiresInHours: 24 });
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/^http:\/\/localhost:3000\/invite\/rm_inv_/);
    expect(created.body.invitation).toMatchObject({ role: "operator", state: "open" });
    const secret = created.body.token as string;
    // Only the hash is stored.
    expect(await getDb().invitation.count({ where: { tokenHash: secret } })).toBe(0);

    expect(await getInvitation(secret)).toMatchObject({ state: "open", role: "operator", team: { id: team.id } });
    const joined = await acceptInvitation(secret, { email: "New@Example.test", password: "a long enough password", name: "Newbie" });
    expect(joined).toMatchObject({ teamId: team.id, role: "operator" });
    expect(await checkCredentials("new@example.test", "a long enough password")).toMatchObject({ email: "new@example.test" });
    await expect(acceptInvitation(secret, { email: "again@example.test", password: "a long enough password" })).rejects.toMatchObject({ status: 404 });
    expect(await getDb().user.count({ where: { email: "again@example.test" } })).toBe(0);

    const list = await (await listInvitations(request("GET", "/api/invitations", admin), noParams)).json();
    expect(list.invitations.map((i: { state: string }) => i.state)).toEqual(["accepted"]);
    const members = await (await listMembers(request("GET", "/api/team/members", admin), noParams)).json();
    expect(members.members.map((m: { email: string; role: string }) => [m.email, m.role])).toContainEqual(["new@example.test", "operator"]);
    const actions = (await getDb().auditEvent.findMany({ where: { teamId: team.id, action: { not: "project.created" } }, orderBy: { id: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(["invitation.created", "member.joined"]);
  });

  it("refuses expired and revoked links, and one sent to another address", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const expiring = (await invite(admin, { role: "viewer", expiresInHours: 1 })).body.token;
    const inTwoHours = new Date(Date.now() + 2 * 3_600_000);
    expect((await getInvitation(expiring, inTwoHours))?.state).toBe("expired");
    await expect(acceptInvitation(expiring, { email: "late@example.test", password: "a long enough password" }, inTwoHours)).rejects.toMatchObject({ status: 404 });

    const revocable = await invite(admin, { role: "viewer" });
    const res = await revoke(request("DELETE", `/api/invitations/${revocable.body.invitation.id}`, admin), params(revocable.body.invitation.id));
    expect((await res.json()).invitation.state).toBe("revoked");
    await expect(acceptInvitation(revocable.body.token, { email: "r@example.test", password: "a long enough password" })).rejects.toMatchObject({ status: 404 });

    const addressed = (await invite(admin, { role: "viewer", email: "only@example.test" })).body.token;
    await expect(acceptInvitation(addressed, { email: "someone@example.test", password: "a long enough password" }))
      .rejects.toMatchObject({ issues: [expect.objectContaining({ path: ["email"], message: "must be only@example.test, the address this invitation was sent to" })] });
    // The failed attempt did not use up the link.
    expect((await getInvitation(addressed))?.state).toBe("open");
    expect(await getDb().user.count({ where: { email: { in: ["late@example.test", "r@example.test", "someone@example.test"] } } })).toBe(0);
  });

  it("a signed-in person joins with their account", async () => {
    const a = await createTeamWithProject({ loopEnabled: false });
    const b = await createTeamWithProject({ loopEnabled: false });
    const token = (await invite(await apiToken(b.team.id, "owner"), { role: "viewer" })).body.token;
    expect(await acceptInvitation(token, { userId: a.user.id })).toMatchObject({ teamId: b.team.id, role: "viewer" });
    expect(await getDb().membership.count({ where: { userId: a.user.id } })).toBe(2);
  });

  it("never says an email has an account: its own password joins with it, a wrong one is a failed sign-in", async () => {
    const a = await createTeamWithProject({ loopEnabled: false });
    await getDb().user.update({ where: { id: a.user.id }, data: { passwordHash: await hashPassword("the owner's own passphrase") } });
    const b = await createTeamWithProject({ loopEnabled: false });
    const token = (await invite(await apiToken(b.team.id, "owner"), { role: "viewer" })).body.token;
    const wrong = await acceptInvitation(token, { email: a.user.email, password: "a long enough password" }, new Date(), "198.51.100.77").catch((e) => e);
    expect(wrong).toBeInstanceOf(InvitationSignInError);
    expect(wrong.message).toBe("email or password is incorrect");
    expect(JSON.stringify(wrong)).not.toMatch(/account/i);
    // The probe counted as a failed sign-in of that account (the sign-in limits apply).
    expect(await getDb().signInAttempt.count({ where: { email: a.user.email, address: "198.51.100.77", succeeded: false } })).toBe(1);
    expect((await getInvitation(token))?.state).toBe("open");
    expect(await acceptInvitation(token, { email: a.user.email.toUpperCase(), password: "the owner's own passphrase" })).toMatchObject({ userId: a.user.id, teamId: b.team.id });
    expect(await getDb().user.count({ where: { email: a.user.email } })).toBe(1);
  });

  it("a link is used once even when two accept it at the same moment", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const token = (await invite(await apiToken(team.id, "owner"), { role: "viewer" })).body.token;
    const results = await Promise.allSettled(["racer-one", "racer-two"].map((n) => acceptInvitation(token, { email: `${n}@example.test`, password: "a long enough password" })));
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ status: 404 });
    expect(await getDb().membership.count({ where: { teamId: team.id } })).toBe(2);
    expect(await getDb().user.count({ where: { email: { in: ["racer-one@example.test", "racer-two@example.test"] } } })).toBe(1);
  });

  it("refuses the commonest and trivially repeated passwords by field", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const token = (await invite(await apiToken(team.id, "owner"), { role: "viewer" })).body.token;
    for (const password of ["password123", "aaaaaaaaaaaa", "1234567890", "qwertyuiop", "abcabcabcabc"]) {
      await expect(acceptInvitation(token, { email: "weak@example.test", password }))
        .rejects.toMatchObject({ issues: [expect.objectContaining({ path: ["password"], message: expect.stringMatching(/^is too easy to guess/) })] });
    }
    expect(await getDb().user.count({ where: { email: "weak@example.test" } })).toBe(0);
    expect((await getInvitation(token))?.state).toBe("open");
  });

  it("validates input by field, and nobody grants more than they hold", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    expect((await invite(admin, { role: "emperor" })).body.error).toMatchObject({ field: "role" });
    expect((await invite(admin, { role: "viewer", expiresInHours: 0 })).body.error).toMatchObject({ field: "expiresInHours", message: "Expires after (hours) must be a whole number from 1 to 720 hours" });
    expect((await invite(admin, { role: "viewer", email: "not-an-email" })).body.error).toMatchObject({ field: "email" });
    const owner = await invite(admin, { role: "owner" });
    expect(owner.status).toBe(403);
    expect(owner.body.error.message).toBe("an admin cannot grant the owner role");
    expect((await invite(await apiToken(team.id, "owner"), { role: "owner" })).status).toBe(201);
    expect(await getDb().invitation.count({ where: { teamId: team.id } })).toBe(1);
  });
});

describe("members", () => {
  it("keeps at least one owner and lets only owners touch owners", async () => {
    const { team, user } = await createTeamWithProject({ loopEnabled: false });
    const ownerTok = await apiToken(team.id, "owner");
    const adminTok = await apiToken(team.id, "admin");
    const ownerMembership = await getDb().membership.findFirstOrThrow({ where: { teamId: team.id, userId: user.id } });
    const demote = await patchMember(request("PATCH", `/api/team/members/${ownerMembership.id}`, ownerTok, { role: "admin" }), params(ownerMembership.id));
    expect(demote.status).toBe(409);
    expect((await demote.json()).error).toMatchObject({ field: "role", message: "Role the team needs at least one owner" });
    const byAdmin = await deleteMember(request("DELETE", `/api/team/members/${ownerMembership.id}`, adminTok), params(ownerMembership.id));
    expect(byAdmin.status).toBe(403);
    expect((await getDb().membership.findUniqueOrThrow({ where: { id: ownerMembership.id } })).role).toBe("owner");

    const m2 = await addMember(team.id, "viewer");
    expect((await patchMember(request("PATCH", `/api/team/members/${m2.id}`, adminTok, { role: "owner" }), params(m2.id))).status).toBe(403);
    expect((await patchMember(request("PATCH", `/api/team/members/${m2.id}`, ownerTok, { role: "owner" }), params(m2.id))).status).toBe(200);
    // With a second owner, the first may step down.
    expect((await patchMember(request("PATCH", `/api/team/members/${ownerMembership.id}`, ownerTok, { role: "admin" }), params(ownerMembership.id))).status).toBe(200);
    const audit = await getDb().auditEvent.findMany({ where: { teamId: team.id, action: "member.role_changed" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.before, a.after])).toEqual([[{ role: "viewer" }, { role: "owner" }], [{ role: "owner" }, { role: "admin" }]]);
    expect(await actorForToken(adminTok)).toMatchObject({ role: "admin" });
  });
});
