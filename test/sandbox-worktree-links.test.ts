// A worktree's .git file and its admin folder's commondir are the agent's to write, and a retry
// and a merge's verify enter the worktree an earlier agent wrote to. git follows them to any
// valid repository on the host; the sandbox must not: root would share that repository with the
// sandbox's group and bind its objects, logs and refs writable.
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDemoRepo } from "@/lib/demo/repo";
import { createWorktree, git } from "@/lib/git";
import { getDb } from "@/lib/db";
import { openRunSandbox } from "@/lib/runs/sandbox";
import { mergeRun } from "@/lib/runs/merge";
import { addPrompt, createTeamWithProject, tempRepoPath } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

const settings = { networkMode: "none", egressPresets: [], egressRules: [], unsandboxed: false };
const enter = (worktree: string, repoPath: string) => openRunSandbox({ worktree, repoPath, settings, adapter: "shell", log: () => {} });

/** A repository with a run's worktree on a ringmaster/ branch; `at` is the worktree's admin folder. */
async function withWorktree(repoPath: string) {
  const wt = await createWorktree({ repoPath, path: tempRepoPath("wt"), branch: "ringmaster/1-task", baseBranch: "main" });
  const at = (await git(wt.path, ["rev-parse", "--path-format=absolute", "--git-dir"])).trim();
  return { worktree: wt.path, admin: at };
}

/** Every file and folder under `dir` with its group and mode: what a share would change. */
function ownership(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort().map((f) => {
    const s = lstatSync(join(dir, f));
    return `${f} ${s.gid} ${s.mode.toString(8)}`;
  });
}

describe("a run's sandbox enters only a worktree of the project's repository", () => {
  it("refuses a worktree whose .git file names another repository's worktree, and shares none of that repository", async () => {
    const project = createDemoRepo(tempRepoPath());
    const other = createDemoRepo(tempRepoPath());
    const { worktree } = await withWorktree(project);
    const { admin: otherAdmin } = await withWorktree(other);
    const before = ownership(join(other, ".git"));

    writeFileSync(join(worktree, ".git"), `gitdir: ${otherAdmin}\n`);
    await expect(enter(worktree, project)).rejects.toThrow(`the worktree ${worktree} belongs to the repository at ${other}/.git, not the project's (${project}/.git): refused`);
    expect(ownership(join(other, ".git"))).toEqual(before);
  });

  it("refuses a worktree whose commondir names another repository", async () => {
    const project = createDemoRepo(tempRepoPath());
    const other = createDemoRepo(tempRepoPath());
    const { worktree, admin } = await withWorktree(project);
    const before = ownership(join(other, ".git"));

    // HEAD names a branch the other repository has, as git needs it to resolve.
    writeFileSync(join(admin, "commondir"), `${other}/.git\n`);
    writeFileSync(join(admin, "HEAD"), "ref: refs/heads/main\n");
    await expect(enter(worktree, project)).rejects.toThrow(`belongs to the repository at ${other}/.git, not the project's`);
    expect(ownership(join(other, ".git"))).toEqual(before);
  });

  it("refuses a worktree whose .git file names the repository's own git folder (its config and hooks)", async () => {
    const project = createDemoRepo(tempRepoPath());
    const { worktree } = await withWorktree(project);
    const before = ownership(join(project, ".git", "hooks"));

    writeFileSync(join(worktree, ".git"), `gitdir: ${project}/.git\n`);
    await expect(enter(worktree, project)).rejects.toThrow(`names ${project}/.git as its git folder, which is none of ${project}/.git/worktrees/: refused`);
    expect(ownership(join(project, ".git", "hooks"))).toEqual(before);
  });

  it("enters a worktree of a normal and of a bare repository, where the agent's git commits on its branch", async () => {
    const normal = createDemoRepo(tempRepoPath());
    const bare = tempRepoPath("bare.git");
    execFileSync("git", ["clone", "--quiet", "--bare", normal, bare]);
    for (const repo of [normal, bare]) {
      const { worktree } = await withWorktree(repo);
      const sandbox = await enter(worktree, repo);
      try {
        const spec = sandbox.launch({ command: "git", args: ["-c", "user.name=a", "-c", "user.email=a@a.test", "commit", "--quiet", "--allow-empty", "-m", "inside"], env: { PATH: "/usr/bin:/bin" } });
        const done = spawnSync(spec.command, spec.args, { env: spec.env as NodeJS.ProcessEnv, encoding: "utf8" });
        expect(done.stderr).toBe("");
        expect((await git(repo, ["log", "-1", "--format=%s", "ringmaster/1-task"])).trim()).toBe("inside");
      } finally {
        await sandbox.close();
      }
    }
  });

  it("a retry whose earlier agent pointed the worktree at another project's repository fails before its agent", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const other = createDemoRepo(tempRepoPath());
    const { admin: otherAdmin } = await withWorktree(other);
    const before = ownership(join(other, ".git"));
    // The first attempt rewrites the worktree's .git file and fails; a second would say so.
    const script = `if [ -e attempted ]; then echo "agent ran again"; exit 0; fi; touch attempted; printf 'gitdir: %s\\n' '${otherAdmin}' > .git; exit 1`;
    const profile = await getDb().agentProfile.create({ data: { teamId: team.id, name: "rewriter", adapter: "shell", commandTemplate: script } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
    await addPrompt(project.id, { number: 1, title: "Rewrite", body: "" });

    const first = (await tickAndRun(project.id)).run!;
    expect(first.status).toBe("failed");
    expect(readFileSync(join(first.worktreePath!, ".git"), "utf8")).toBe(`gitdir: ${otherAdmin}\n`);
    const second = (await tickAndRun(project.id)).run!;
    expect(second).toMatchObject({ attempt: 2, branch: first.branch, status: "failed" });
    expect(second.error).toMatch(/belongs to the repository at .*, not the project's .*: refused$/);
    const logged = (await getDb().runLog.findMany({ where: { runId: second.id } })).map((l) => l.content).join("\n");
    expect(logged).not.toContain("agent ran again");
    expect(ownership(join(other, ".git"))).toEqual(before);
  });

  it("an agent that points its worktree at another repository and exits 0 has nothing committed there: its run fails", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const other = createDemoRepo(tempRepoPath());
    const { admin: otherAdmin } = await withWorktree(other);
    const commitsBefore = (await git(other, ["rev-list", "--all"])).trim();
    const script = `echo work > new-file.txt; printf 'gitdir: %s\\n' '${otherAdmin}' > .git; exit 0`;
    const profile = await getDb().agentProfile.create({ data: { teamId: team.id, name: "relinker", adapter: "shell", commandTemplate: script } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
    await addPrompt(project.id, { number: 1, title: "Relink", body: "" });

    const run = (await tickAndRun(project.id)).run!;
    expect(run.status).toBe("failed");
    expect(run.commitSha).toBeNull();
    expect(run.error).toMatch(/belongs to the repository at .*, not the project's .*: refused$/);
    expect((await git(other, ["rev-list", "--all"])).trim()).toBe(commitsBefore);
    expect((await git(other, ["status", "--porcelain"])).trim()).toBe("");
  });

  it("a merge whose worktree was pointed at another repository since is not rebased there: it fails", async () => {
    const project = createDemoRepo(tempRepoPath());
    const other = createDemoRepo(tempRepoPath());
    const { worktree } = await withWorktree(project);
    const { admin: otherAdmin } = await withWorktree(other);
    writeFileSync(join(worktree, "a.txt"), "work\n");
    await git(worktree, ["add", "-A"]);
    await git(worktree, ["commit", "-q", "-m", "work"]);
    const { team } = await createTeamWithProject({ loopEnabled: false });
    const row = await getDb().project.create({ data: { teamId: team.id, name: "relinked", slug: `relinked-${Date.now()}`, repoKind: "local", repoPath: project, settings: { create: {} } } });
    const runRow = await getDb().run.create({ data: { projectId: row.id, kind: "executor", status: "succeeded", adapter: "shell", branch: "ringmaster/1-task", worktreePath: worktree, mergeStatus: "pending" } });
    writeFileSync(join(worktree, ".git"), `gitdir: ${otherAdmin}\n`);
    const logBefore = (await git(other, ["log", "--all", "--format=%H %s"])).trim();

    expect(await mergeRun(runRow.id)).toBe("failed");
    expect((await getDb().run.findUniqueOrThrow({ where: { id: runRow.id } })).error).toMatch(/not the project's .*: refused$/);
    expect((await git(other, ["log", "--all", "--format=%H %s"])).trim()).toBe(logBefore);
  });
});
