import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { POST as testRoute } from "@/app/api/projects/[id]/github/test/route";
import { GET as deliveriesRoute } from "@/app/api/projects/[id]/github/deliveries/route";
import { PATCH as patchProject } from "@/app/api/projects/[id]/route";
import { PUT as putConnection } from "@/app/api/projects/[id]/github/route";
import { GET as getRunRoute } from "@/app/api/runs/[id]/route";
import { createGithubProject, deliver, example, PAT, startGithubDouble, WEBHOOK_SECRET } from "./helpers/github-fixtures";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const double = await startGithubDouble();
afterAll(() => double.stop());

const bare = (fullName: string) => join(double.remotesRoot, "acme", `${fullName.split("/")[1]}.git`);
const testConnection = (projectId: string, token: string) => testRoute(request("POST", `/api/projects/${projectId}/github/test`, token), params(projectId));
const deliveries = (projectId: string, token: string) => deliveriesRoute(request("GET", `/api/projects/${projectId}/github/deliveries`, token), params(projectId));

describe("GitHub from the project settings", () => {
  it("tests the stored connection against GitHub and shows the base branch's head", async () => {
    const { project, token, fullName } = await createGithubProject(double);
    const res = await testConnection(project.id, token);
    expect(res.status).toBe(200);
    const sha = execFileSync("git", ["rev-parse", "main"], { cwd: bare(fullName) }).toString().trim();
    const subject = execFileSync("git", ["log", "-1", "--format=%s", "main"], { cwd: bare(fullName) }).toString().trim();
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ ok: true, login: "ringmaster-bot", repository: fullName, head: { branch: "main", sha, subject } });
    expect(body).not.toContain(PAT);
    // The test asked with the stored token, read the repository and its branch.
    const calls = double.requests.filter((r) => r.path.startsWith(`/repos/${fullName}`)).slice(-2);
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /repos/${fullName}`, `GET /repos/${fullName}/branches/main`]);
    expect(calls[1].authorization).toBe(`token ${PAT}`);
  });

  it("says which step failed: a branch GitHub does not have; and refuses such a base branch by field", async () => {
    const { project, token, fullName } = await createGithubProject(double);
    const refused = await patchProject(request("PATCH", `/api/projects/${project.id}`, token, { baseBranch: "release" }), params(project.id));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ field: "baseBranch", message: `Base branch does not exist in ${fullName} on GitHub` });
    await getDb().project.update({ where: { id: project.id }, data: { baseBranch: "release", activeBranch: "release" } });
    expect(await (await testConnection(project.id, token)).json()).toEqual({ ok: false, step: "branch", message: `branch release does not exist in ${fullName} on GitHub` });
  });

  it("refuses to connect a project whose base branch GitHub does not have, naming the field", async () => {
    const { project, token } = await createGithubProject(double);
    await getDb().project.update({ where: { id: project.id }, data: { baseBranch: "release", activeBranch: "release" } });
    const res = await putConnection(request("PUT", `/api/projects/${project.id}/github`, token, { kind: "pat", token: PAT }), params(project.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ field: "baseBranch", message: expect.stringMatching(/^Base branch does not exist in acme\/widgets-\w+ on GitHub$/) });
  });

  it("answers a GitHub run's links from its project's connection", async () => {
    const { project, token } = await createGithubProject(double);
    const run = await getDb().run.create({ data: { projectId: project.id, kind: "executor", adapter: "demo", status: "succeeded", branch: "ringmaster/1-a", commitSha: "a".repeat(40) } });
    const res = await getRunRoute(request("GET", `/api/runs/${run.id}`, token), params(run.id));
    // Here the clone URL is the double's remotes folder, no web address: no links (lib/runs/web-links.test.ts has the rest).
    expect((await res.json()).run).toMatchObject({ branch: "ringmaster/1-a", links: null });
  });

  it("lists the project's last deliveries with their status, newest first, without payloads", async () => {
    const { project, fullName } = await createGithubProject(double);
    const first = await deliver("push", example("push", undefined, fullName), WEBHOOK_SECRET, `dl-a-${project.id}`);
    expect(first.status).toBe(202);
    const second = await deliver("pull_request", example("pull_request", "opened", fullName), WEBHOOK_SECRET, `dl-b-${project.id}`);
    expect(second.status).toBe(202);
    await getDb().webhookDelivery.update({ where: { provider_deliveryId: { provider: "github", deliveryId: `dl-a-${project.id}` } }, data: { receivedAt: new Date(Date.now() - 60_000), status: "failed", error: "boom" } });
    const res = await deliveries(project.id, await apiToken(project.teamId, "viewer"));
    expect(res.status).toBe(200);
    const { deliveries: rows } = await res.json();
    expect(rows.map((r: Record<string, unknown>) => [r.deliveryId, r.event, r.status, r.error])).toEqual([
      [`dl-b-${project.id}`, "pull_request", "received", null],
      [`dl-a-${project.id}`, "push", "failed", "boom"],
    ]);
    expect(rows[0]).not.toHaveProperty("payload");
  });

  it("is the team's own: another team gets 404, an operator may not test", async () => {
    const { project, team } = await createGithubProject(double);
    const stranger = await createTeamWithProject({ loopEnabled: false });
    const outsider = await apiToken(stranger.team.id, "admin");
    expect((await testConnection(project.id, outsider)).status).toBe(404);
    expect((await deliveries(project.id, outsider)).status).toBe(404);
    expect((await testConnection(project.id, await apiToken(team.id, "operator"))).status).toBe(403);
  });
});
