import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createDemoRepo } from "@/lib/demo/repo";
import { POST as createProjectRoute } from "@/app/api/projects/route";
import { PATCH as patchProject } from "@/app/api/projects/[id]/route";
import { POST as checkRoute } from "@/app/api/projects/repository-check/route";
import { createTeamWithProject, tempRepoPath } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { audits } from "./helpers/runs";

const gitOut = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd }).toString().trim();

async function setUp() {
  const f = await createTeamWithProject({ loopEnabled: false });
  const admin = await apiToken(f.team.id, "admin");
  const create = (body: Record<string, unknown>) =>
    createProjectRoute(request("POST", "/api/projects", admin, { name: "p", repoKind: "local", baseBranch: "main", ...body }), undefined as never);
  const patch = (body: Record<string, unknown>) => patchProject(request("PATCH", `/api/projects/${f.project.id}`, admin, body), params(f.project.id));
  const check = (body: Record<string, unknown>, token = admin) => checkRoute(request("POST", "/api/projects/repository-check", token, body), undefined as never);
  return { ...f, admin, create, patch, check };
}

async function refusal(res: Response) {
  expect(res.status).toBe(400);
  return (await res.json()).error as { code: string; field: string; message: string };
}

describe("repository set-up", () => {
  it("refuses a missing folder, a folder that is no repository, a folder inside one and a missing branch, by field, creating nothing", async () => {
    const { team, repoPath, create } = await setUp();
    const plain = tempRepoPath("plain");
    mkdirSync(plain);
    writeFileSync(join(plain, "notes.txt"), "not a repository\n");
    const inner = join(repoPath, "src-inner");
    mkdirSync(inner);
    writeFileSync(join(inner, "a.txt"), "x\n");
    const before = await getDb().project.count({ where: { teamId: team.id } });

    expect(await refusal(await create({ repoPath: join(tempRepoPath("gone"), "nothing") }))).toMatchObject({ code: "invalid", field: "repoPath", message: "Repository path does not exist on the server" });
    expect(await refusal(await create({ repoPath: plain }))).toMatchObject({ code: "invalid", field: "repoPath", message: "Repository path is not a git repository (no .git found there)" });
    expect(await refusal(await create({ repoPath: inner }))).toMatchObject({ field: "repoPath", message: `Repository path is a folder inside the repository ${repoPath}: name the repository itself` });
    expect(await refusal(await create({ repoPath, baseBranch: "develop" }))).toMatchObject({ code: "invalid", field: "baseBranch", message: "Base branch does not exist in this repository; branches there: main" });
    expect(await getDb().project.count({ where: { teamId: team.id } })).toBe(before);
    expect((await create({ repoPath })).status).toBe(201);
  });

  it("offers a new repository in an empty folder and creates it on request, audited", async () => {
    const { team, create } = await setUp();
    const empty = tempRepoPath("empty");
    mkdirSync(empty);
    expect(await refusal(await create({ repoPath: empty, baseBranch: "trunk" }))).toMatchObject({ code: "empty_folder", field: "repoPath" });
    const res = await create({ repoPath: empty, baseBranch: "trunk", initRepository: true });
    expect(res.status).toBe(201);
    expect(gitOut(empty, "log", "-1", "--format=%s", "trunk")).toBe("Initial commit");
    const { project } = await res.json();
    const created = (await audits(team.id)).find((a) => a.action === "project.created" && a.targetId === project.id);
    expect(created?.after).toMatchObject({ repoPath: empty, baseBranch: "trunk", repositoryCreated: true });
    // Never into a folder with something in it.
    const full = tempRepoPath("full");
    mkdirSync(full);
    writeFileSync(join(full, "keep.txt"), "mine\n");
    expect(await refusal(await create({ repoPath: full, initRepository: true }))).toMatchObject({ field: "repoPath", message: "Repository path is not empty: a new repository is only created in an empty folder" });
  });

  it("checks the path and the branch at every settings change, leaving the project as it was", async () => {
    const { project, repoPath, patch } = await setUp();
    const plain = tempRepoPath("plain");
    mkdirSync(plain);
    writeFileSync(join(plain, "x"), "x");
    const other = createDemoRepo(tempRepoPath("other"));
    execFileSync("git", ["branch", "-m", "main", "trunk"], { cwd: other });

    expect(await refusal(await patch({ baseBranch: "nope" }))).toMatchObject({ field: "baseBranch", message: "Base branch does not exist in this repository; branches there: main" });
    expect(await refusal(await patch({ repoPath: plain }))).toMatchObject({ field: "repoPath", message: "Repository path is not a git repository (no .git found there)" });
    // The new path is checked with the branch the project keeps.
    expect(await refusal(await patch({ repoPath: other }))).toMatchObject({ field: "baseBranch", message: "Base branch does not exist in this repository; branches there: trunk" });
    expect(await getDb().project.findUniqueOrThrow({ where: { id: project.id } })).toMatchObject({ repoPath, baseBranch: "main" });
    expect((await patch({ repoPath: other, baseBranch: "trunk" })).status).toBe(200);
    expect(await getDb().project.findUniqueOrThrow({ where: { id: project.id } })).toMatchObject({ repoPath: other, baseBranch: "trunk" });
  });

  it("tests a path and branch without changing anything, showing the branch head; admins only", async () => {
    const { team, repoPath, check } = await setUp();
    const res = await check({ repoPath, baseBranch: "main" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ repoPath, head: { branch: "main", sha: gitOut(repoPath, "rev-parse", "main"), subject: gitOut(repoPath, "log", "-1", "--format=%s", "main") } });
    expect(await refusal(await check({ repoPath, baseBranch: "nope" }))).toMatchObject({ field: "baseBranch" });
    const empty = tempRepoPath("empty");
    mkdirSync(empty);
    expect(await refusal(await check({ repoPath: empty, baseBranch: "main" }))).toMatchObject({ code: "empty_folder" });
    expect(readdirSync(empty)).toEqual([]);
    const operator = await apiToken(team.id, "operator");
    expect((await check({ repoPath, baseBranch: "main" }, operator)).status).toBe(403);
  });
});
