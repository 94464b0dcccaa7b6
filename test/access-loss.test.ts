// Access ends when it is taken away: an open stream closes within seconds of the removal, the
// revocation or "sign out everywhere"; a project-scoped token reads only its own project's things.
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { actorForUser, isActorCurrent } from "@/lib/auth/actor";
import { signOutEverywhere } from "@/lib/auth/sessions";
import { teamFeedResponse } from "@/lib/events/team-feed";
import { SseReader } from "@/lib/events/sse-parse";
import { ACCESS_RECHECK_MS } from "@/lib/events/sse";
import { GET as events } from "@/app/api/events/route";
import { GET as runLog } from "@/app/api/runs/[id]/log/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as listProfiles } from "@/app/api/agent-profiles/route";
import { DELETE as revokeToken } from "@/app/api/tokens/[id]/route";
import { DELETE as removeMember } from "@/app/api/team/members/[id]/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };

/** Reads until the server ends the stream; how long that took. */
async function endsWithin(reader: SseReader, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if ((await reader.next(ms, true).catch(() => undefined)) === null) return Date.now() - started;
  }
  throw new Error(`the stream was still open after ${ms} ms`);
}

describe("an open stream closes when its reader loses access", () => {
  it("a revoked token's team stream and run log stream end within seconds", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const reader = await apiToken(team.id, "viewer");
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "executor", adapter: "demo", status: "running" } });
    const feed = await events(new Request("http://localhost/api/events", { headers: { authorization: `Bearer ${reader}` } }), undefined);
    const log = await runLog(request("GET", `/api/runs/${run.id}/log`, reader), params(run.id));
    expect([feed.status, log.status]).toEqual([200, 200]);
    const feedReader = new SseReader(feed.body!);
    const logReader = new SseReader(log.body!);
    expect(await feedReader.next()).toMatchObject({ event: "ready" });
    const tokenId = (await getDb().apiToken.findFirstOrThrow({ where: { teamId: team.id, role: "viewer", runId: null } })).id;
    expect((await revokeToken(request("DELETE", `/api/tokens/${tokenId}`, admin), params(tokenId))).status).toBe(200);
    expect(await endsWithin(feedReader, ACCESS_RECHECK_MS * 3)).toBeLessThanOrEqual(ACCESS_RECHECK_MS * 3);
    expect(await endsWithin(logReader, ACCESS_RECHECK_MS * 3)).toBeLessThanOrEqual(ACCESS_RECHECK_MS * 3);
  });

  it("a removed member's stream ends; so does one of a person who signed out everywhere", async () => {
    const { team, user } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const member = await getDb().user.create({ data: { email: `removed-${team.id}@example.test` } });
    const membership = await getDb().membership.create({ data: { teamId: team.id, userId: member.id, role: "viewer" } });
    const stays = await getDb().user.create({ data: { email: `stays-${team.id}@example.test`, memberships: { create: { teamId: team.id, role: "viewer" } } } });
    const since = new Date(Date.now() + 1);
    const removedActor = (await actorForUser(member.id))!;
    const ownerActor = (await actorForUser(user.id))!;
    const open = (actor: typeof ownerActor) => new SseReader(teamFeedResponse({
      teamId: team.id, signal: new AbortController().signal, accessRecheckMs: 200, stillAllowed: () => isActorCurrent(actor, since),
    }).body!);
    const removed = open(removedActor);
    const owner = open(ownerActor);
    const bystander = open((await actorForUser(stays.id))!);
    for (const r of [removed, owner, bystander]) expect(await r.next()).toMatchObject({ event: "ready" });

    expect((await removeMember(request("DELETE", `/api/team/members/${membership.id}`, admin), params(membership.id))).status).toBe(204);
    await endsWithin(removed, 3_000);
    await signOutEverywhere(ownerActor, new Date(since.getTime() + 1000));
    await endsWithin(owner, 3_000);
    // The one who kept access keeps the stream.
    await expect(bystander.next(1_000, true)).rejects.toThrow(/no server-sent event/);
    expect(bystander.ended).toBe(false);
  });
});

describe("project-scoped and run tokens stay in their project", () => {
  it("see only their project's agent profiles, and another project's run is not found", async () => {
    const { team, project, profile } = await createTeamWithProject({ loopEnabled: false });
    const elsewhere = await getDb().project.create({
      data: { teamId: team.id, name: "other", slug: `other-${team.id}`, repoKind: "local", repoPath: "/tmp/other", settings: { create: {} }, loopState: { create: {} } },
    });
    const secretProfile = await getDb().agentProfile.create({ data: { teamId: team.id, name: "other project's", adapter: "shell", commandTemplate: "secret-agent {prompt}" } });
    await getDb().projectSettings.update({ where: { projectId: elsewhere.id }, data: { executorProfileId: secretProfile.id } });
    const scoped = await apiToken(team.id, "operator", project.id);
    const runHere = await getDb().run.create({ data: { projectId: project.id, kind: "executor", adapter: "demo", status: "running" } });
    const runThere = await getDb().run.create({ data: { projectId: elsewhere.id, kind: "executor", adapter: "demo", status: "running" } });
    const { createRunToken } = await import("@/lib/auth/tokens");
    const runToken = await createRunToken({ id: runHere.id, projectId: project.id, teamId: team.id }, 60_000);

    for (const token of [scoped, runToken]) {
      const listed = await (await listProfiles(request("GET", "/api/agent-profiles", token), noParams)).json();
      expect(listed.profiles.map((p: { id: string }) => p.id)).toEqual([profile.id]);
      for (const res of [
        await getRun(request("GET", `/api/runs/${runThere.id}`, token), params(runThere.id)),
        await runLog(request("GET", `/api/runs/${runThere.id}/log`, token), params(runThere.id)),
        await getRun(request("GET", "/api/runs/no-such-run", token), params("no-such-run")),
      ]) {
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: { code: "not_found", message: "run not found" } });
      }
    }
    // A team-wide token still sees them all.
    const all = await (await listProfiles(request("GET", "/api/agent-profiles", await apiToken(team.id, "viewer")), noParams)).json();
    expect(all.profiles.map((p: { id: string }) => p.id).sort()).toEqual([profile.id, secretProfile.id].sort());
  });
});
