import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { createDemoRepo } from "@/lib/demo/repo";
import { POST as createProjectRoute } from "@/app/api/projects/route";
import { PATCH as patchProject } from "@/app/api/projects/[id]/route";
import { createTeamWithProject, tempRepoPath } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

async function adminOfNewTeam() {
  const f = await createTeamWithProject({ loopEnabled: false });
  const admin = await apiToken(f.team.id, "admin");
  const create = (repoPath: string) => createProjectRoute(request("POST", "/api/projects", admin, { name: "p", repoKind: "local", repoPath, baseBranch: "main" }), undefined as never);
  const patch = (repoPath: string) => patchProject(request("PATCH", `/api/projects/${f.project.id}`, admin, { repoPath }), params(f.project.id));
  return { ...f, create, patch };
}

async function expectRefused(res: Response, message: RegExp) {
  expect(res.status).toBe(400);
  const { error } = await res.json();
  expect(error).toMatchObject({ code: "invalid", field: "repoPath" });
  expect(error.message).toMatch(message);
}

describe("local repository paths", () => {
  it("must lie under the configured roots once symlinks are resolved, on create and on every update", async () => {
    const { team, project, repoPath, create, patch } = await adminOfNewTeam();
    const outside = createDemoRepo(join(mkdtempSync(join(tmpdir(), "rm-outside-")), "repo"));
    const link = join(getEnv().REPO_ROOTS![0], `link-${team.id}`);
    symlinkSync(outside, link);
    const etcLink = join(getEnv().REPO_ROOTS![0], `etc-${team.id}`);
    symlinkSync("/etc", etcLink);
    const before = await getDb().project.count({ where: { teamId: team.id } });
    for (const path of ["/", "/etc", "/nonexistent/repo", resolve(getEnv().DATA_DIR), join(resolve(getEnv().DATA_DIR), "worktrees"), outside, link, etcLink, getEnv().REPO_ROOTS![0], `${repoPath}/../../..`]) {
      await expectRefused(await create(path), /REPO_ROOTS|does not exist|data folder/);
      await expectRefused(await patch(path), /REPO_ROOTS|does not exist|data folder/);
    }
    expect(await getDb().project.count({ where: { teamId: team.id } })).toBe(before);
    expect((await getDb().project.findUniqueOrThrow({ where: { id: project.id } })).repoPath).toBe(repoPath);

    // Inside a root, through a symlink or "..": the canonical path is what the project keeps.
    const other = tempRepoPath("other");
    createDemoRepo(other);
    const alias = join(getEnv().REPO_ROOTS![0], `alias-${team.id}`);
    symlinkSync(other, alias);
    const res = await patch(join(alias, "..", `alias-${team.id}`));
    expect(res.status).toBe(200);
    expect((await res.json()).project.repoPath).toBe(other);
    expect((await create(alias)).status).toBe(201);
  });

  it("belongs to one team: another team's repository, one inside it or around it, is refused", async () => {
    const first = await adminOfNewTeam();
    const second = await adminOfNewTeam();
    const alias = join(getEnv().REPO_ROOTS![0], `second-alias-${first.team.id}`);
    symlinkSync(first.repoPath, alias);
    mkdirSync(join(first.repoPath, "sub"));
    for (const path of [first.repoPath, alias, join(first.repoPath, "sub"), join(first.repoPath, "..")]) {
      await expectRefused(await second.create(path), /another team/);
      await expectRefused(await second.patch(path), /another team/);
    }
    // The same team may have two projects on one repository.
    expect((await first.create(alias)).status).toBe(201);
  });

  it("defaults to the data folder's repos/, where Ringmaster's own GitHub clones are refused", async () => {
    const { create } = await adminOfNewTeam();
    const env = getEnv();
    const roots = env.REPO_ROOTS;
    Object.assign(env, { REPO_ROOTS: undefined });
    try {
      await expectRefused(await create(createDemoRepo(tempRepoPath("elsewhere", roots![0]))), /REPO_ROOTS/);
      const mine = createDemoRepo(join(resolve(env.DATA_DIR), "repos", `mine-${Date.now()}`));
      expect((await create(mine)).status).toBe(201);
      const gh = await getDb().project.findFirstOrThrow({ where: { repoKind: "local" } });
      await getDb().project.update({ where: { id: gh.id }, data: { repoKind: "github" } });
      const clone = createDemoRepo(join(resolve(env.DATA_DIR), "repos", `${gh.id}.git`));
      await expectRefused(await create(clone), /data folder/);
      await getDb().project.update({ where: { id: gh.id }, data: { repoKind: "local" } });
    } finally {
      Object.assign(env, { REPO_ROOTS: roots });
    }
  });
});
