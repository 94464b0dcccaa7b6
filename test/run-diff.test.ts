import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { executeRun } from "@/lib/runs/execute";
import { mergeRun } from "@/lib/runs/merge";
import { GET as getRunRoute } from "@/app/api/runs/[id]/route";
import { POST as discardRoute } from "@/app/api/runs/[id]/discard/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";
import { tickAndRun } from "./helpers/run-once";
import { audits } from "./helpers/runs";

const writes = (path: string, content: string) => `\`\`\`file ${path}\n${content}\n\`\`\`\n`;
const gitOut = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd }).toString().trim();

async function runPage(runId: string, token: string) {
  const res = await getRunRoute(request("GET", `/api/runs/${runId}`, token), params(runId));
  expect(res.status).toBe(200);
  return (await res.json()).run;
}

describe("what an agent did", () => {
  it("keeps a run's diff and the merged commit after the merge removed its worktree and branch", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ cooldownMs: 0 });
    await addPrompt(project.id, { number: 1, title: "greet", body: writes("hello.txt", "hello\nworld") });
    const { run } = await tickAndRun(project.id);
    expect(run!.mergeStatus).toBe("merged");
    expect(existsSync(run!.worktreePath!)).toBe(false);
    expect(gitOut(repoPath, "branch", "--list", run!.branch!)).toBe("");

    const page = await runPage(run!.id, await apiToken(team.id, "viewer"));
    expect(page.mergedSha).toBe(gitOut(repoPath, "rev-parse", "main"));
    expect(page.diff).toMatchObject({ source: "stored", insertions: 2, deletions: 0, truncated: false, files: [{ path: "hello.txt", insertions: 2, deletions: 0, binary: false }] });
    expect(page.diff.patch).toContain("diff --git a/hello.txt b/hello.txt");
    expect(page.diff.patch).toContain("+hello\n+world\n");
    // A local project has no web host to link to.
    expect(page.links).toBeNull();
  });

  it("offers a conflicted run's kept worktree for discarding: admins only, audited, its diff stays", async () => {
    const { team, project, repoPath } = await createTeamWithProject({ maxParallel: 2, cooldownMs: 0 });
    await addPrompt(project.id, { number: 1, title: "first", body: writes("shared.txt", "one") });
    await addPrompt(project.id, { number: 2, title: "second", body: writes("shared.txt", "two") });
    await runTick(project.id);
    await runTick(project.id);
    const runs = await getDb().run.findMany({ where: { projectId: project.id }, orderBy: { queuedAt: "asc" } });
    await Promise.all(runs.map((r) => executeRun(r.id)));
    expect(await mergeRun(runs[0].id)).toBe("merged");
    expect(await mergeRun(runs[1].id)).toBe("conflict");
    const conflicted = await getDb().run.findUniqueOrThrow({ where: { id: runs[1].id } });
    expect(existsSync(conflicted.worktreePath!)).toBe(true);

    const discard = (token: string, id = conflicted.id) => discardRoute(request("POST", `/api/runs/${id}/discard`, token), params(id));
    expect((await discard(await apiToken(team.id, "operator"))).status).toBe(403);
    const stranger = await createTeamWithProject({ loopEnabled: false });
    expect((await discard(await apiToken(stranger.team.id, "admin"))).status).toBe(404);
    // Merged work has no worktree left to discard.
    const admin = await apiToken(team.id, "admin");
    expect((await discard(admin, runs[0].id)).status).toBe(409);
    expect(existsSync(conflicted.worktreePath!)).toBe(true);

    expect((await discard(admin)).status).toBe(200);
    expect(existsSync(conflicted.worktreePath!)).toBe(false);
    // Only the folder goes: the branch keeps the commits.
    expect(gitOut(repoPath, "rev-parse", conflicted.branch!)).toBe(conflicted.commitSha);
    const after = await runPage(conflicted.id, admin);
    expect(after).toMatchObject({ worktreePath: null, mergeStatus: "conflict" });
    expect(after.discardedAt).not.toBeNull();
    expect(after.diff.patch).toContain("+two");
    const entry = (await audits(team.id)).find((a) => a.action === "run.worktree_discarded");
    expect(entry).toMatchObject({ targetId: conflicted.id, before: { worktreePath: conflicted.worktreePath, branch: conflicted.branch, mergeStatus: "conflict" } });
    expect((await discard(admin)).status).toBe(409);
  });
});
