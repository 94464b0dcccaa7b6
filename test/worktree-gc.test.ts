import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb, type PromptStatus, type RunStatus } from "@/lib/db";
import { branchExists, commitAll, createWorktree } from "@/lib/git";
import { collectWorktrees } from "@/lib/runs/worktree-gc";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";

const DAY = 86_400_000;
const now = new Date();
const retentionMs = 14 * DAY;

type Case = { status: RunStatus; commit?: boolean; mergeStatus?: string; promptStatus?: PromptStatus; ageMs?: number; liveTwin?: boolean; freshBranch?: boolean };

async function endedRun(fixture: Awaited<ReturnType<typeof createTeamWithProject>>, number: number, c: Case) {
  const { project, profile, repoPath } = fixture;
  const branch = `ringmaster/${number}-work`;
  const added = await addPrompt(project.id, { number, title: `work ${number}`, body: "" });
  const prompt = await getDb().prompt.update({ where: { id: added.id }, data: { status: c.promptStatus ?? "failed", branch: c.freshBranch ? null : branch } });
  const path = join(mkdtempSync(join(tmpdir(), "rm-gc-")), "wt");
  await createWorktree({ repoPath, path, branch, baseBranch: "main" });
  let commitSha: string | null = null;
  if (c.commit) {
    writeFileSync(join(path, `f${number}.txt`), "work\n");
    commitSha = await commitAll(path, `work ${number}`, "main");
  }
  const base = { projectId: project.id, promptId: prompt.id, kind: "executor" as const, adapter: "demo", agentProfileId: profile.id, branch, worktreePath: path };
  const run = await getDb().run.create({
    data: { ...base, status: c.status, commitSha, mergeStatus: c.mergeStatus, finishedAt: new Date(now.getTime() - (c.ageMs ?? 60_000)) },
  });
  if (c.liveTwin) await getDb().run.create({ data: { ...base, status: "running", attempt: 2 } });
  return { run, path, branch };
}

describe("the worktree collector (seed 003's cleanup, with its guardrails)", () => {
  it("removes the worktrees of failed and cancelled runs and of runs that ended without changes, and keeps every one that holds work", async () => {
    const fixture = await createTeamWithProject({ loopEnabled: false });
    const removed = [
      await endedRun(fixture, 1, { status: "failed" }),
      await endedRun(fixture, 2, { status: "cancelled", promptStatus: "cancelled" }),
      await endedRun(fixture, 3, { status: "succeeded", promptStatus: "done" }),
      await endedRun(fixture, 4, { status: "timed_out" }),
      // Unmerged commits, but older than the retention: removed; the branch keeps the commits.
      await endedRun(fixture, 5, { status: "cancelled", commit: true, promptStatus: "cancelled", ageMs: 15 * DAY }),
    ];
    const kept = [
      // Unmerged commits within the retention: a failed run's work, a conflicted merge's work.
      await endedRun(fixture, 6, { status: "failed", commit: true }),
      // (a conflict sends the prompt back on a fresh branch: this worktree is no longer its).
      await endedRun(fixture, 7, { status: "succeeded", commit: true, mergeStatus: "conflict", promptStatus: "pending", freshBranch: true, ageMs: 13 * DAY }),
      // The prompt's next attempt continues in the same worktree (one per branch).
      await endedRun(fixture, 8, { status: "failed", promptStatus: "pending" }),
      // Another run of the same branch is live in it.
      await endedRun(fixture, 9, { status: "failed", liveTwin: true }),
    ];

    expect(await collectWorktrees({ now, retentionMs })).toEqual({ removed: 5, kept: 4 });
    for (const r of removed) {
      expect(existsSync(r.path)).toBe(false);
      expect((await getDb().run.findUniqueOrThrow({ where: { id: r.run.id } })).worktreeGoneAt).toEqual(now);
    }
    expect(await branchExists(fixture.repoPath, removed[4].branch)).toBe(true);
    for (const r of kept) {
      expect(existsSync(r.path)).toBe(true);
      expect((await getDb().run.findUniqueOrThrow({ where: { id: r.run.id } })).worktreeGoneAt).toBeNull();
    }
    // A second pass finds nothing new to remove and keeps the same ones.
    expect(await collectWorktrees({ now, retentionMs })).toEqual({ removed: 0, kept: 4 });
    // Past the retention the unmerged ones go too; those still in use stay.
    expect(await collectWorktrees({ now: new Date(now.getTime() + 15 * DAY), retentionMs })).toEqual({ removed: 2, kept: 2 });
    expect(existsSync(kept[2].path) && existsSync(kept[3].path)).toBe(true);
  });
});
