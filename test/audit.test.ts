import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { GET as readAudit } from "@/app/api/audit/route";
import { POST as postLoop } from "@/app/api/projects/[id]/loop/route";
import { POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { PATCH as patchPolicy } from "@/app/api/approvals/policy/[id]/route";
import { changeLoopMode } from "@/lib/loop/controls";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };

const audit = (token: string, query = "") => readAudit(request("GET", `/api/audit${query}`, token), noParams);

describe("audit log", () => {
  it("records who changed what, when, with before and after, for people, tokens and the system", async () => {
    const { team, project, user } = await createTeamWithProject({ loopEnabled: false });
    const operator = await apiToken(team.id, "operator");
    const admin = await apiToken(team.id, "admin");
    await postLoop(request("POST", `/api/projects/${project.id}/loop`, operator, { action: "start" }), params(project.id));
    await postLoop(request("POST", `/api/projects/${project.id}/loop`, operator, { action: "parallel", enabled: false }), params(project.id));
    await postPrompt(request("POST", `/api/projects/${project.id}/prompts`, operator, { title: "Audit me" }), params(project.id));
    await patchPolicy(request("PATCH", `/api/approvals/policy/${project.id}`, admin, { approveMerges: true }), params(project.id));
    await changeLoopMode(project, "pause");
    await changeLoopMode(project, "resume", { kind: "user", id: user.id });

    const res = await audit(admin);
    expect(res.status).toBe(200);
    const { events } = await res.json();
    // The fixture's project was created by the system; the actions below are the test's own.
    const mine = events.filter((e: { action: string }) => e.action !== "project.created");
    expect(mine.map((e: { action: string; actorLabel: string; before: unknown; after: unknown }) => [e.action, e.actorLabel, e.before, e.after])).toEqual([
      ["loop.resume", user.email, { mode: "paused" }, { mode: "running" }],
      ["loop.pause", "Ringmaster", { mode: "running" }, { mode: "paused" }],
      ["project.approval_policy_changed", "token “test admin”",
        { approvalPolicy: "none", approveMerges: false, approveFixPastCap: true }, { approvalPolicy: "none", approveMerges: true, approveFixPastCap: true }],
      ["prompt.created", "token “test operator”", null, { number: 1, title: "Audit me", priority: 3, approval: "not_required" }],
      ["loop.parallel", "token “test operator”", null, { parallelEnabled: false }],
      ["loop.start", "token “test operator”", { mode: "stopped" }, { mode: "running" }],
    ]);
    expect(mine.map((e: { sentence: string }) => e.sentence)).toEqual([
      `${user.email} resumed the loop`,
      "Ringmaster paused the loop",
      "token “test admin” changed the approval policy: Approval before merging off → on",
      "token “test operator” added prompt #1 “Audit me”",
      "token “test operator” turned parallel executors off",
      "token “test operator” started the loop",
    ]);
    const loopOnly = await (await audit(admin, "?area=loop")).json();
    expect(loopOnly.events.map((e: { action: string }) => e.action)).toEqual(["loop.resume", "loop.pause", "loop.parallel", "loop.start"]);
    const badArea = await audit(admin, "?area=everything");
    expect(badArea.status).toBe(400);
    expect((await badArea.json()).error).toMatchObject({ field: "area", message: expect.stringMatching(/^Area must be one of project, settings, prompt/) });
    expect(new Date(mine[0].at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(events.at(-1)).toMatchObject({ action: "project.created", actorLabel: "Ringmaster" });
  });

  it("is for admins and owners of the team only, and pages back by id", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    const owner = await apiToken(team.id, "owner");
    for (const action of ["start", "stop", "start"]) {
      await postLoop(request("POST", `/api/projects/${project.id}/loop`, owner, { action }), params(project.id));
    }
    expect((await audit(await apiToken(team.id, "operator"))).status).toBe(403);
    expect((await audit(await apiToken(team.id, "viewer"))).status).toBe(403);
    expect((await audit(await apiToken(team.id, "owner", project.id))).status).toBe(403);
    const theirs = await (await audit(await apiToken(other.team.id, "owner"))).json();
    expect(theirs.events.map((e: { targetId: string }) => e.targetId)).toEqual([other.project.id]);

    const page1 = await (await audit(owner, "?limit=2")).json();
    expect(page1.events.map((e: { action: string }) => e.action)).toEqual(["loop.start", "loop.stop"]);
    const page2 = await (await audit(owner, `?limit=2&before=${page1.next}`)).json();
    expect(page2.events.map((e: { action: string }) => e.action)).toEqual(["loop.start", "project.created"]);
    expect(page2.next).toBeNull();
    const bad = await audit(owner, "?before=abc");
    expect((await bad.json()).error).toMatchObject({ field: "before", message: "Page cursor must be an event id" });
    expect(await getDb().auditEvent.count({ where: { teamId: team.id } })).toBe(4);
  });
});
