import { existsSync } from "node:fs";
import { chmod, readdir, readFile, stat, utimes } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { dataDir } from "@/lib/data-dir";
import { branchSha, currentBranch, fillPool, listWorktrees } from "@/lib/git";
import { adminDirOf } from "@/lib/git/worktree-pool-entry";
import { runTick } from "@/lib/loop/tick";
import { executeRun } from "@/lib/runs/execute";
import { mergeRun } from "@/lib/runs/merge";
import { poolDir, poolFillsSettled } from "@/lib/runs/worktree-pool";
import { getSandboxStatus } from "@/lib/sandbox/status";
import { collectPools } from "@/lib/runs/worktree-gc";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";

const adminName = async (worktree: string) => basename(await adminDirOf(worktree));
// The git entries of the pool's ready worktrees, and the tips they are at.
async function ready(pool: string) {
  const names = await readdir(join(pool, "ready"));
  return { admins: (await Promise.all(names.map((n) => adminName(join(pool, "ready", n))))).sort(), tips: [...new Set(names.map((n) => n.slice(0, 40)))] };
}

async function queuedRun(projectId: string, number: number, title: string) {
  await addPrompt(projectId, { number, title, body: `\`\`\`file f${number}.txt\n${number}\n\`\`\`\n` });
  await runTick(projectId);
  return getDb().run.findFirstOrThrow({ where: { projectId, status: "queued" } });
}

describe("a project's pool of ready worktrees", () => {
  it("a new run starts in a ready worktree at the base tip; the pool is refilled after each take and refreshed after each merge", async () => {
    const db = getDb();
    const { project, repoPath } = await createTeamWithProject({ cooldownMs: 0 });
    const pool = poolDir(project.id);

    // The project's first run finds no pool; its start has the pool filled, its merge moves it to the new tip.
    const first = await queuedRun(project.id, 1, "First");
    await executeRun(first.id);
    expect(await adminName((await db.run.findUniqueOrThrow({ where: { id: first.id } })).worktreePath!)).toBe("ringmaster_1-first");
    expect(await mergeRun(first.id)).toBe("merged");
    await poolFillsSettled();
    const tip = await branchSha(repoPath, "main");
    const before = await ready(pool);
    expect([before.admins.length, before.tips]).toEqual([2, [tip]]);

    const second = await queuedRun(project.id, 2, "Second");
    await executeRun(second.id);
    const run = await db.run.findUniqueOrThrow({ where: { id: second.id } });
    const path = resolve(dataDir(), "worktrees", project.id, "ringmaster_2-second");
    expect(run).toMatchObject({ status: "succeeded", branch: "ringmaster/2-second", worktreePath: path, baseSha: tip });
    expect(before.admins).toContain(await adminName(path));
    expect(await currentBranch(path)).toBe("ringmaster/2-second");
    await poolFillsSettled();
    const refilled = await ready(pool);
    expect([refilled.admins.length, refilled.tips, refilled.admins.filter((a) => before.admins.includes(a)).length]).toEqual([2, [tip], 1]);

    expect(await mergeRun(second.id)).toBe("merged");
    await poolFillsSettled();
    const moved = await branchSha(repoPath, "main");
    expect(moved).not.toBe(tip);
    // The same worktrees, checked out again at the new tip.
    expect(await ready(pool)).toEqual({ admins: refilled.admins, tips: [moved] });
    // The merge removed the run's worktree; git lists the main one and the pool's two.
    expect((await listWorktrees(repoPath)).map((w) => w.locked)).toEqual([false, true, true]);

    // A run of no prompt (the planner) starts its branch from the pool too.
    const planner = await db.run.create({ data: { projectId: project.id, kind: "planner", adapter: run.adapter, agentProfileId: run.agentProfileId } });
    await executeRun(planner.id);
    const planned = await db.run.findUniqueOrThrow({ where: { id: planner.id } });
    const plannerPath = resolve(dataDir(), "worktrees", project.id, `ringmaster_planner-${planner.id}`);
    expect(planned).toMatchObject({ branch: `ringmaster/planner-${planner.id}`, worktreePath: plannerPath, baseSha: moved });
    expect(refilled.admins).toContain(await adminName(plannerPath));
    await poolFillsSettled();
  });

  it("shares each ready worktree with the sandbox's group when it is filled, so a run at the tip starts without walking it again", async () => {
    const db = getDb();
    const status = await getSandboxStatus();
    const user = status.ok ? status.host.user : null;
    expect(user).not.toBeNull();
    const { project } = await createTeamWithProject({ cooldownMs: 0 });
    const pool = poolDir(project.id);
    const first = await queuedRun(project.id, 1, "First");
    await executeRun(first.id);
    expect(await mergeRun(first.id)).toBe("merged");
    await poolFillsSettled();
    const names = await readdir(join(pool, "ready"));
    expect(names.map((n) => n.slice(41))).toEqual(names.map(() => expect.stringMatching(new RegExp(`^[0-9a-f]{8}\\.group-${user!.gid}$`))));
    // Shared when filled: group-owned and group-writable, as a run's start would have made it.
    for (const name of names) {
      const readme = await stat(join(pool, "ready", name, "README.md"));
      expect([readme.gid, readme.mode & 0o070]).toEqual([user!.gid, 0o060]);
      // A mark a walk at the start would undo.
      await chmod(join(pool, "ready", name, "f1.txt"), 0o644);
    }

    const admins = await Promise.all(names.map((n) => adminName(join(pool, "ready", n))));

    // The agent rewrites a tracked file (it can: the fill shared it) and adds one.
    await addPrompt(project.id, { number: 2, title: "Second", body: "```file README.md\nrewritten\n```\n```file f2.txt\n2\n```\n" });
    await runTick(project.id);
    const second = await db.run.findFirstOrThrow({ where: { projectId: project.id, status: "queued" } });
    await executeRun(second.id);
    const run = await db.run.findUniqueOrThrow({ where: { id: second.id } });
    expect(run.status).toBe("succeeded");
    expect(admins).toContain(await adminName(run.worktreePath!));
    expect(await readFile(join(run.worktreePath!, "README.md"), "utf8")).toBe("rewritten\n");
    // Not walked at the start: the mark is still there.
    expect((await stat(join(run.worktreePath!, "f1.txt"))).mode & 0o777).toBe(0o644);
    await poolFillsSettled();
  });

  it("the worktree collector removes the pools of archived, deleted and idle projects and keeps the others", async () => {
    const db = getDb();
    const fixtures = [await createTeamWithProject(), await createTeamWithProject(), await createTeamWithProject()];
    for (const { project, repoPath } of fixtures) await fillPool({ repoPath, pool: poolDir(project.id), baseBranch: "main", size: 1 });
    const [active, archived, idle] = fixtures;
    await db.project.update({ where: { id: archived.project.id }, data: { archivedAt: new Date() } });
    const now = new Date();
    const long = new Date(now.getTime() - 31 * 60_000);
    await utimes(join(poolDir(idle.project.id), "ready"), long, long);
    // A pool whose project is gone from the database.
    await fillPool({ repoPath: active.repoPath, pool: poolDir("gone-project"), baseBranch: "main", size: 1 });

    expect(await collectPools({ now, idleMs: 30 * 60_000 })).toBe(3);
    expect([active, archived, idle].map((f) => existsSync(poolDir(f.project.id)))).toEqual([true, false, false]);
    expect(existsSync(poolDir("gone-project"))).toBe(false);
    expect((await listWorktrees(archived.repoPath)).length).toBe(1);
    expect((await listWorktrees(idle.repoPath)).length).toBe(1);
    expect((await listWorktrees(active.repoPath)).length).toBe(2);
    expect(await collectPools({ now, idleMs: 30 * 60_000 })).toBe(0);
  });
});
