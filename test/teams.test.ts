// A person can own a second team and work in either: the team chosen in the switcher (a cookie)
// decides what every read and write sees, and is honoured only for a team they belong to.
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createTeam } from "@/lib/teams/create";
import { actorForPerson, listTeamChoices, requireMembership } from "@/lib/teams/current";
import { requireProject } from "@/lib/auth/actor";
import { listProjectsWithStatus } from "@/lib/projects/queries";
import { createProject } from "@/lib/projects/create";
import { createDemoRepo } from "@/lib/demo/repo";
import { GET as listTeams, POST as postTeam } from "@/app/api/teams/route";
import { PUT as switchTeam } from "@/app/api/teams/current/route";
import { createTeamWithProject, tempRepoPath } from "./helpers/fixtures";
import { apiToken, request } from "./helpers/api";

describe("teams of one person", () => {
  it("creates a second team owned by its creator and switches between them, each seeing only its own objects", async () => {
    const first = await createTeamWithProject({ loopEnabled: false });
    const stranger = await createTeamWithProject({ loopEnabled: false });
    const second = await createTeam(first.user.id, { name: `  ${first.team.name}  ` });
    // Same name, its own slug.
    expect(second).toMatchObject({ name: first.team.name });
    expect(second.slug).not.toBe(first.team.slug);
    expect(await getDb().membership.findFirst({ where: { teamId: second.id, userId: first.user.id } })).toMatchObject({ role: "owner" });
    expect(await getDb().auditEvent.count({ where: { teamId: second.id, action: "team.created" } })).toBe(1);
    await expect(createTeam(first.user.id, { name: "   " })).rejects.toMatchObject({ issues: [expect.objectContaining({ path: ["name"], message: "is required" })] });

    const inFirst = await actorForPerson(first.user.id, null);
    const inSecond = await actorForPerson(first.user.id, `theme=dark; rm_team=${second.id}`);
    expect(inFirst).toMatchObject({ teamId: first.team.id, role: "owner" });
    expect(inSecond).toMatchObject({ teamId: second.id, role: "owner" });
    // A cookie naming a team the person does not belong to is not honoured.
    expect(await actorForPerson(first.user.id, `rm_team=${stranger.team.id}`)).toMatchObject({ teamId: first.team.id });

    const other = await createProject(second.id, { name: "Other", repoKind: "local", repoPath: createDemoRepo(tempRepoPath()), baseBranch: "main" }, { loopEnabled: false });
    expect((await listProjectsWithStatus(inFirst!.teamId)).map((p) => p.id)).toEqual([first.project.id]);
    expect((await listProjectsWithStatus(inSecond!.teamId)).map((p) => p.id)).toEqual([other.id]);
    await expect(requireProject(inSecond!, first.project.id)).rejects.toMatchObject({ status: 404 });
    await expect(requireProject(inFirst!, other.id)).rejects.toMatchObject({ status: 404 });
    expect((await requireProject(inSecond!, other.id)).id).toBe(other.id);

    expect(await listTeamChoices(first.user.id, second.id)).toEqual([
      { id: first.team.id, name: first.team.name, role: "owner", current: false },
      { id: second.id, name: second.name, role: "owner", current: true },
    ]);
    expect((await listTeamChoices(first.user.id, stranger.team.id)).map((t) => t.current)).toEqual([true, false]);
    await expect(requireMembership(first.user.id, stranger.team.id)).rejects.toMatchObject({ status: 404 });
  });

  it("is for people only: a token keeps the team it was made for", async () => {
    const f = await createTeamWithProject({ loopEnabled: false });
    const token = await apiToken(f.team.id, "owner");
    const before = await getDb().team.count();
    expect((await listTeams(request("GET", "/api/teams", token), {} as never)).status).toBe(403);
    expect((await postTeam(request("POST", "/api/teams", token, { name: "Mine" }), {} as never)).status).toBe(403);
    expect((await switchTeam(request("PUT", "/api/teams/current", token, { teamId: f.team.id }), {} as never)).status).toBe(403);
    expect(await getDb().team.count()).toBe(before);
  });
});
