import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getQueue } from "@/lib/queues";
import { createRunToken } from "@/lib/auth/tokens";
import { approvalGate } from "@/lib/approvals/request";
import { POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { GET as listApprovals } from "@/app/api/approvals/route";
import { POST as decide } from "@/app/api/approvals/[id]/route";
import { PATCH as patchPolicy } from "@/app/api/approvals/policy/[id]/route";
import { GET as listPolicies } from "@/app/api/approvals/policy/route";
import { POST as postImport } from "@/app/api/projects/[id]/prompts/import/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };
import { tickAndRun } from "./helpers/run-once";

const policy = (projectId: string, token: string, body: unknown) => patchPolicy(request("PATCH", `/api/approvals/policy/${projectId}`, token, body), params(projectId));
const addPrompt = async (projectId: string, token: string, title: string, body = "") =>
  (await (await postPrompt(request("POST", `/api/projects/${projectId}/prompts`, token, { title, body }), params(projectId))).json()).prompt;
const inbox = async (token: string, status = "pending") => (await (await listApprovals(request("GET", `/api/approvals?status=${status}`, token), noParams)).json()).approvals;
const importFiles = (projectId: string, token: string, files: Array<{ name: string; text: string }>) =>
  postImport(request("POST", `/api/projects/${projectId}/prompts/import`, token, { files }), params(projectId));
const decideAs = (id: string, token: string, body: unknown) => decide(request("POST", `/api/approvals/${id}`, token, body), params(id));

describe("approval policy for prompts", () => {
  it("none / planner / all decide which new prompts wait, and each waiting one is in the inbox", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "planner", adapter: "demo", status: "running" } });
    const planner = await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 60_000);

    expect((await addPrompt(project.id, admin, "by hand, policy none")).approval).toBe("not_required");
    expect((await addPrompt(project.id, planner, "planned, policy none")).approval).toBe("not_required");
    expect((await policy(project.id, admin, { approvalPolicy: "planner" })).status).toBe(200);
    expect((await addPrompt(project.id, admin, "by hand, policy planner")).approval).toBe("not_required");
    expect((await addPrompt(project.id, planner, "planned, policy planner")).approval).toBe("pending");
    await policy(project.id, admin, { approvalPolicy: "all" });
    expect((await addPrompt(project.id, admin, "by hand, policy all")).approval).toBe("pending");

    const waiting = await inbox(admin);
    expect(waiting.map((a: { prompt: { title: string }; requestedBy: string; kind: string; project: { name: string } }) =>
      [a.kind, a.prompt.title, a.requestedBy, a.project.name])).toEqual([
      ["prompt_run", "planned, policy planner", "planner agent", project.name],
      ["prompt_run", "by hand, policy all", "token “test admin”", project.name],
    ]);
    const policies = await (await listPolicies(request("GET", "/api/approvals/policy", admin), noParams)).json();
    expect(policies.policies).toEqual([{ projectId: project.id, name: project.name, approvalPolicy: "all", approveMerges: false, approveFixPastCap: true }]);
    const bad = await policy(project.id, admin, { approvalPolicy: "sometimes" });
    expect((await bad.json()).error).toMatchObject({ field: "approvalPolicy", message: "Approval policy must be none, planner or all" });
  });

  it("a waiting prompt does not run; approving it lets the loop pick it up at once", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: true, cooldownMs: 0 });
    const operator = await apiToken(team.id, "operator");
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { approvalPolicy: "all" } });
    const prompt = await addPrompt(project.id, operator, "write a file", "```file approved.txt\nyes\n```\n");

    const first = await tickAndRun(project.id);
    expect(first.run).toBeNull();
    expect(first.tick).toMatchObject({ skipped: false, decision: { message: expect.stringContaining("awaiting approval") } });

    const [waiting] = await inbox(operator);
    await getQueue("tick").obliterate({ force: true });
    const res = await decideAs(waiting.id, operator, { decision: "approve", comment: "looks safe" });
    expect(res.status).toBe(200);
    expect((await res.json()).approval).toMatchObject({ status: "approved", comment: "looks safe" });
    // Nudged: a tick for this project is already queued.
    const jobs = await getQueue("tick").getJobs(["waiting", "delayed", "prioritized"]);
    expect(jobs.map((j) => j.data)).toContainEqual(expect.objectContaining({ projectId: project.id, reason: "approval approved" }));

    const second = await tickAndRun(project.id);
    expect(second.run).toMatchObject({ promptId: prompt.id, status: "succeeded", mergeStatus: "merged", prompt: { status: "done", approval: "approved" } });

    const decided = await inbox(operator, "approved");
    expect(decided[0]).toMatchObject({ id: waiting.id, comment: "looks safe", decidedBy: "token “test operator”" });
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { teamId: team.id, action: "approval.approved" } });
    expect(audit).toMatchObject({ actorType: "token", before: { status: "pending" }, after: expect.objectContaining({ status: "approved", comment: "looks safe" }) });
  });

  it("rejecting cancels the prompt; a decision is made once; viewers and run tokens cannot decide", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const operator = await apiToken(team.id, "operator");
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { approvalPolicy: "all" } });
    const prompt = await addPrompt(project.id, operator, "risky");
    const [waiting] = await inbox(operator);

    expect((await decideAs(waiting.id, await apiToken(team.id, "viewer"), { decision: "approve" })).status).toBe(403);
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "planner", adapter: "demo", status: "running" } });
    const runToken = await createRunToken({ id: run.id, projectId: project.id, teamId: team.id }, 60_000);
    const self = await decideAs(waiting.id, runToken, { decision: "approve" });
    expect(self.status).toBe(403);
    expect((await self.json()).error.message).toBe("an agent's run token cannot decide approvals");
    const bad = await decideAs(waiting.id, operator, { decision: "maybe" });
    expect((await bad.json()).error).toMatchObject({ field: "decision" });
    expect((await getDb().approval.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe("pending");

    expect((await decideAs(waiting.id, operator, { decision: "reject", comment: "too risky" })).status).toBe(200);
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ approval: "rejected", status: "cancelled" });
    const again = await decideAs(waiting.id, operator, { decision: "approve" });
    expect(again.status).toBe(409);
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).approval).toBe("rejected");
  });
});

describe("approval gates for merges and review-fix cycles past the cap", () => {
  it("open a request when the policy asks, then follow the decision", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const operator = await apiToken(team.id, "operator");
    const pr = await getDb().pullRequest.create({ data: { projectId: project.id, number: 7, url: "https://github.example/pr/7", headBranch: "rm/p1", baseBranch: "main", fixCycles: 3 } });

    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { approveMerges: false, approveFixPastCap: false } });
    expect(await approvalGate(pr, "pr_merge")).toBe("not_required");
    expect(await approvalGate(pr, "fix_cycle_cap")).toBe("not_required");

    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { approveMerges: true, approveFixPastCap: true, maxFixCycles: 3 } });
    expect(await approvalGate({ ...pr, fixCycles: 2 }, "fix_cycle_cap")).toBe("not_required");
    expect(await approvalGate(pr, "pr_merge")).toBe("pending");
    expect(await approvalGate(pr, "pr_merge")).toBe("pending");
    expect(await approvalGate(pr, "fix_cycle_cap")).toBe("pending");
    const waiting = await inbox(operator);
    expect(waiting.map((a: { kind: string; pullRequest: { number: number }; requestedBy: string }) => [a.kind, a.pullRequest.number, a.requestedBy]))
      .toEqual([["pr_merge", 7, "Ringmaster"], ["fix_cycle_cap", 7, "Ringmaster"]]);

    await decideAs(waiting[0].id, operator, { decision: "approve" });
    await decideAs(waiting[1].id, operator, { decision: "reject", comment: "stop fixing, I will take over" });
    expect(await approvalGate(pr, "pr_merge")).toBe("approved");
    expect(await approvalGate(pr, "fix_cycle_cap")).toBe("rejected");
  });
});

describe("prompts imported from files obey the approval policy", () => {
  const file = (n: number, title: string) => `---\nnumber: ${n}\ntitle: ${title}\nstatus: pending\n---\n\`\`\`file imported-${n}.txt\nran\n\`\`\`\n`;

  it("policy all: a file in the repository's .planning and an uploaded file wait for approval and do not run", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ loopEnabled: true, cooldownMs: 0 });
    const admin = await apiToken(team.id, "admin");
    expect((await policy(project.id, admin, { approvalPolicy: "all" })).status).toBe(200);
    const dir = join(repoPath, ".planning", project.planningKey, "prompts");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "01-from-repo.md"), file(1, "From the repository"));
    const uploaded = await importFiles(project.id, admin, [{ name: "02-uploaded.md", text: file(2, "Uploaded") }]);
    expect(uploaded.status).toBe(201);

    const first = await tickAndRun(project.id);
    expect(first.run).toBeNull();
    const prompts = await getDb().prompt.findMany({ where: { projectId: project.id }, orderBy: { number: "asc" } });
    expect(prompts.map((p) => [p.number, p.origin, p.approval, p.status])).toEqual([
      [1, "file", "pending", "pending"],
      [2, "file", "pending", "pending"],
    ]);
    const waiting = await inbox(admin);
    expect(waiting.map((a: { kind: string; prompt: { number: number } }) => [a.kind, a.prompt.number]).sort()).toEqual([["prompt_run", 1], ["prompt_run", 2]]);
    expect(existsSync(join(repoPath, "imported-1.txt"))).toBe(false);
  });

  it("policy planner: files an agent wrote into the repository wait; a person's upload does not", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ loopEnabled: false });
    const admin = await apiToken(team.id, "admin");
    await policy(project.id, admin, { approvalPolicy: "planner" });
    const dir = join(repoPath, ".planning", project.planningKey, "prompts");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "01-from-repo.md"), file(1, "From the repository"));
    await importFiles(project.id, admin, [{ name: "02-uploaded.md", text: file(2, "Uploaded") }]);
    await tickAndRun(project.id);
    const prompts = await getDb().prompt.findMany({ where: { projectId: project.id }, orderBy: { number: "asc" } });
    expect(prompts.map((p) => [p.number, p.approval])).toEqual([[1, "pending"], [2, "not_required"]]);
  });
});
