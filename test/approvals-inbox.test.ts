// The approvals inbox: filtered by project and kind, counted for the navigation, and emptied of a
// project's items when the project is archived (nothing can act on them any more).
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { countPendingApprovals } from "@/lib/approvals/list";
import { createProject } from "@/lib/projects/create";
import { createDemoRepo } from "@/lib/demo/repo";
import { PATCH as patchPolicy } from "@/app/api/approvals/policy/[id]/route";
import { POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { DELETE as archive } from "@/app/api/projects/[id]/route";
import { GET as listApprovals } from "@/app/api/approvals/route";
import { createTeamWithProject, tempRepoPath } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };

describe("approvals inbox", () => {
  it("filters by project and kind, counts what waits, and closes a project's items when it is archived", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const second = await createProject(team.id, { name: "Second", repoKind: "local", repoPath: createDemoRepo(tempRepoPath()), baseBranch: "main" }, { loopEnabled: false });
    const owner = await apiToken(team.id, "owner");
    for (const p of [project.id, second.id]) {
      expect((await patchPolicy(request("PATCH", `/api/approvals/policy/${p}`, owner, { approvalPolicy: "all" }), params(p))).status).toBe(200);
    }
    const add = async (projectId: string, title: string) =>
      (await (await postPrompt(request("POST", `/api/projects/${projectId}/prompts`, owner, { title }), params(projectId))).json()).prompt;
    await add(project.id, "first A");
    const b = await add(second.id, "second B");
    await getDb().approval.create({ data: { teamId: team.id, projectId: second.id, kind: "pr_merge", requestedBy: "system" } });

    const inbox = async (query: string) => {
      const res = await listApprovals(request("GET", `/api/approvals?status=pending${query}`, owner), noParams);
      expect(res.status).toBe(200);
      return ((await res.json()).approvals as Array<{ kind: string; project: { id: string }; prompt: { id: string } | null }>).map((a) => [a.project.id, a.kind]);
    };
    expect(await inbox("")).toEqual([[project.id, "prompt_run"], [second.id, "prompt_run"], [second.id, "pr_merge"]]);
    expect(await inbox(`&projectId=${second.id}`)).toEqual([[second.id, "prompt_run"], [second.id, "pr_merge"]]);
    expect(await inbox("&kind=pr_merge")).toEqual([[second.id, "pr_merge"]]);
    expect(await inbox(`&projectId=${project.id}&kind=pr_merge`)).toEqual([]);
    const bad = await listApprovals(request("GET", "/api/approvals?kind=merge", owner), noParams);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ field: "kind", message: "Kind must be prompt_run, pr_merge or fix_cycle_cap" });

    const actor = { kind: "token" as const, id: "t", teamId: team.id, role: "owner" as const, projectId: null };
    expect(await countPendingApprovals(actor)).toBe(3);
    expect(await countPendingApprovals({ ...actor, projectId: project.id })).toBe(1);

    expect((await archive(request("DELETE", `/api/projects/${second.id}`, owner), params(second.id))).status).toBe(204);
    expect(await countPendingApprovals(actor)).toBe(1);
    expect(await inbox("")).toEqual([[project.id, "prompt_run"]]);
    const closed = await getDb().approval.findMany({ where: { projectId: second.id }, orderBy: { createdAt: "asc" } });
    expect(closed.map((a) => [a.status, a.comment, a.decidedAt !== null])).toEqual([
      ["rejected", "closed: the project was archived", true], ["rejected", "closed: the project was archived", true],
    ]);
    expect(closed[0].promptId).toBe(b.id);
  });
});
