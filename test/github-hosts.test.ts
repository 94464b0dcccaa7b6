import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { requireClient } from "@/lib/github/client";
import { createProject } from "@/lib/projects/create";
import { createDemoRepo } from "@/lib/demo/repo";
import { PUT as putConnection } from "@/app/api/projects/[id]/github/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { PAT, startGithubDouble } from "./helpers/github-fixtures";
import { GithubDouble } from "./helpers/github-double";

// Three doubles: GitHub itself (GITHUB_API_URL), an Enterprise server the operator lists in
// GITHUB_API_HOSTS, and a host nobody listed that would love to receive a token.
const github = await startGithubDouble();
const enterprise = await new GithubDouble(github.remotesRoot).start();
const attacker = await new GithubDouble(mkdtempSync(join(tmpdir(), "rm-attacker-"))).start();
process.env.GITHUB_API_HOSTS = `ghe.example.com, ${enterprise.url}`;
// acme/widgets with its main branch, which connecting checks (both doubles read this remote).
execFileSync("git", ["clone", "--bare", "-q", createDemoRepo(join(mkdtempSync(join(tmpdir(), "rm-src-")), "repo")), join(github.remotesRoot, "acme", "widgets.git")]);
afterAll(() => Promise.all([github.stop(), enterprise.stop(), attacker.stop()]));

async function githubProject() {
  const { team } = await createTeamWithProject({ loopEnabled: false });
  const project = await createProject(team.id, { name: "widgets", repoKind: "github", githubOwner: "acme", githubRepo: "widgets" });
  const admin = await apiToken(team.id, "admin");
  const connect = (body: Record<string, unknown>) =>
    putConnection(request("PUT", `/api/projects/${project.id}/github`, admin, { kind: "pat", token: PAT, ...body }), params(project.id));
  return { team, project, connect };
}

describe("the GitHub API base URL of a connection", () => {
  it.each([
    ["a host nobody listed", () => attacker.url],
    ["a listed host over another scheme", () => enterprise.url.replace("http:", "https:")],
    ["a listed host on another port", () => `http://127.0.0.1:1`],
    ["credentials in the URL", () => enterprise.url.replace("http://", "http://user:pass@")],
    ["the cloud metadata address", () => "http://169.254.169.254/latest"],
  ])("refuses %s with a field error and sends it nothing", async (_what, url) => {
    const { project, connect } = await githubProject();
    const res = await connect({ apiBaseUrl: url() });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "invalid", field: "apiBaseUrl" });
    expect(attacker.requests).toEqual([]);
    expect(await getDb().githubConnection.count({ where: { projects: { some: { id: project.id } } } })).toBe(0);
  });

  it("accepts github's own API and the hosts the operator listed, sending the token only there", async () => {
    const { connect } = await githubProject();
    expect((await connect({})).status).toBe(201);
    expect((await connect({ apiBaseUrl: enterprise.url })).status).toBe(201);
    expect(enterprise.calls("GET", "/user")).toEqual([expect.objectContaining({ authorization: `token ${PAT}` })]);
  });

  it("follows a redirect within the connection's own host (a renamed repository)", async () => {
    const { connect } = await githubProject();
    enterprise.redirect((r) => r.path === "/repos/acme/widgets", `${enterprise.url}/repos/acme/widgets-renamed`);
    expect((await connect({ apiBaseUrl: enterprise.url })).status).toBe(201);
    expect(enterprise.calls("GET", "/repos/acme/widgets-renamed")).toEqual([expect.objectContaining({ authorization: `token ${PAT}` })]);
  });

  it("does not follow a redirect to another host with the token", async () => {
    const { connect } = await githubProject();
    enterprise.redirect((r) => r.path === "/user", `${attacker.url}/user`);
    const res = await connect({ apiBaseUrl: enterprise.url });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ field: "token", message: expect.stringContaining("redirect") });
    expect(attacker.requests).toEqual([]);
  });

  it("a stored connection whose host is not allowed (any more) gets no client and sends nothing", async () => {
    const { team } = await githubProject();
    const { id } = await getDb().githubConnection.create({
      data: { teamId: team.id, name: "old", kind: "pat", apiBaseUrl: attacker.url, encryptedToken: (await import("@/lib/crypto/secrets")).encryptSecret(PAT) },
    });
    const { client } = await requireClient(id).catch((e: Error) => ({ client: e }));
    expect(client).toBeInstanceOf(Error);
    expect((client as Error).message).toContain("GITHUB_API_HOSTS");
    expect(attacker.requests).toEqual([]);
  });
});
