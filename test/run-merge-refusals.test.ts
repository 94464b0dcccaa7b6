import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb, getPool, type Prisma } from "@/lib/db";
import { git } from "@/lib/git";
import { mergeRun } from "@/lib/runs/merge";
import { PROXY_PROBE_JS } from "@/lib/sandbox/proxy-probe";
import { createTeamWithProject, waitUntil } from "./helpers/fixtures";
import { awaitingMerge, BRANCH, onBranch } from "./helpers/merge";
import { activity, audits, emptyQueues, queuedJobs } from "./helpers/runs";

beforeEach(emptyQueues);

const sha = async (repoPath: string, ref: string) => (await git(repoPath, ["rev-parse", ref])).trim();
const verify = (projectId: string, verifyCommand: string, data: Prisma.ProjectSettingsUpdateInput = {}) =>
  getDb().projectSettings.update({ where: { projectId }, data: { verifyCommand, ...data } });

// Merges whose transaction is waiting for the project's advisory lock.
const lockWaiters = async () => (await getPool().query<{ n: number }>(
  `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
)).rows[0].n;

describe("the merge queue when git refuses the merge", () => {
  it("rolls everything back for the job's retry when the base moves under the merge (its ref is locked by another update)", async () => {
    const { team, project, prompt, run, path, repoPath } = await awaitingMerge();
    // The base is not checked out, so the merge moves its ref with a compare-and-swap, which
    // fails while another git process holds the ref's lock.
    await git(repoPath, ["switch", "--quiet", "--detach"]);
    const base = await sha(repoPath, "main");
    const lock = join(repoPath, ".git", "refs", "heads", "main.lock");
    writeFileSync(lock, "");
    const [acts, audit] = [await activity(project.id), await audits(team.id)];

    await expect(mergeRun(run.id)).rejects.toThrow(/^base branch moved during the merge$/);
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ mergeStatus: "pending", error: null, mergedSha: null, worktreeGoneAt: null });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "in_progress", attempts: 0, branch: BRANCH, failureLog: null });
    expect(await sha(repoPath, "main")).toBe(base);
    expect(existsSync(path)).toBe(true);
    expect(await audits(team.id)).toEqual(audit);
    expect(await activity(project.id)).toEqual(acts);
    expect(await queuedJobs("tick")).toEqual([]);

    // The retry, once the other update is done, lands the work.
    rmSync(lock);
    expect(await mergeRun(run.id)).toBe("merged");
    expect(await onBranch(repoPath, "main", "shared.txt")).toBe("from the run");
  });

  it("fails the merge git refuses for another reason (a user's uncommitted change in the checked-out base), spending an attempt and keeping both", async () => {
    const { team, project, prompt, run, path, repoPath } = await awaitingMerge();
    const base = await sha(repoPath, "main");
    writeFileSync(join(repoPath, "README.md"), "the user's edit\n");
    const acts = await activity(project.id);

    expect(await mergeRun(run.id)).toBe("failed");
    const detail = "base checked out with uncommitted changes";
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ mergeStatus: "failed", error: detail, mergedSha: null, worktreeGoneAt: null });
    const back = await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } });
    expect(back).toMatchObject({ status: "pending", attempts: 1, branch: null, failureLog: `Merge failed: ${detail}` });
    expect(back.retryAt).toBeInstanceOf(Date);
    expect(await sha(repoPath, "main")).toBe(base);
    expect(readFileSync(join(repoPath, "README.md"), "utf8")).toBe("the user's edit\n");
    expect(existsSync(path)).toBe(true);
    expect((await audits(team.id)).at(-1)).toMatchObject({ action: "merge.failed", after: { branch: BRANCH, detail, promptStatus: "pending" } });
    expect((await activity(project.id)).slice(acts.length)).toEqual([{
      type: "taskFailed", data: { runId: run.id, promptId: prompt.id },
      message: `#4 Add search: merge failed (${detail}); back to the queue to be redone from the current base; work kept at ${path}`,
    }]);
    expect(await queuedJobs("tick")).toEqual([[expect.any(String), { projectId: project.id, reason: "merge failed" }]]);
  });
});

describe("the verify of a merge, in the run's sandbox", () => {
  it("runs with the operator's PATH", async () => {
    const { project, run } = await awaitingMerge();
    const original = process.env.PATH!;
    process.env.PATH = `${original}:/opt/ringmaster-verify-path`;
    try {
      await verify(project.id, 'echo "$PATH"; exit 1');
      expect(await mergeRun(run.id)).toBe("failed");
      expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).error).toBe(`verify failed after rebase: ${original}:/opt/ringmaster-verify-path\n`);
    } finally {
      process.env.PATH = original;
    }
  });

  it("adds what its sandbox refused to the run's egress, after the agent's", async () => {
    const { project, run } = await awaitingMerge();
    await getDb().run.update({ where: { id: run.id }, data: { egress: { allowed: {}, blocked: { "evil.example": 1 }, recorded: ["agent"] } } });
    const probe = `${process.execPath} -e '${PROXY_PROBE_JS}' 'CONNECT exfil.example.net:443 HTTP/1.1' ' 200 '`;
    await verify(project.id, `${probe}; ${probe}; test -f shared.txt`, { networkMode: "allow-list", egressPresets: ["npm"] });
    expect(await mergeRun(run.id)).toBe("merged");
    expect((await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).egress).toEqual({
      allowed: {}, blocked: { "evil.example": 1, "exfil.example.net": 2 }, recorded: ["agent", expect.any(String)],
    });
  });
});

describe("one merge per project at a time", () => {
  it("a second merge of the project waits for the first, however long its verify takes; another project's merge does not", async () => {
    const fixture = await createTeamWithProject({ loopEnabled: false });
    const { project, repoPath } = fixture;
    const first = await awaitingMerge("first\n", { fixture, number: 4, file: "first.txt" });
    const second = await awaitingMerge("second\n", { fixture, number: 5, file: "second.txt" });
    // The first run's verify holds its merge (and the project's lock) until the test says go.
    await verify(project.id, "if [ -e hold ]; then touch started; while [ ! -e go ]; do sleep 0.05; done; rm -f hold started go; fi");
    writeFileSync(join(first.path, "hold"), "");
    const base = await sha(repoPath, "main");

    const merging = mergeRun(first.run.id);
    await waitUntil("the first merge's verify to start", async () => existsSync(join(first.path, "started")), 60_000);

    const elsewhere = await awaitingMerge("other project\n");
    let landed = false;
    const blocked = waitUntil("a merge waiting for a lock", async () => landed || (await lockWaiters()) > 0, 60_000)
      .then(() => { if (!landed) throw new Error("another project's merge waited for this project's lock"); });
    expect(await Promise.race([mergeRun(elsewhere.run.id).then((s) => { landed = true; return s; }), blocked])).toBe("merged");
    await blocked;

    const waiting = mergeRun(second.run.id);
    const finished = waiting.then(() => { throw new Error("the second merge finished while the first held the project's lock"); });
    finished.catch(() => {});
    await Promise.race([waitUntil("the second merge to wait for the lock", async () => (await lockWaiters()) === 1, 60_000), finished]);
    expect(await sha(repoPath, "main")).toBe(base);
    expect((await getDb().run.findUniqueOrThrow({ where: { id: second.run.id } })).mergeStatus).toBe("pending");

    // Longer than Prisma's 5 s default for a transaction: a verify (a test suite) may take minutes.
    await new Promise((r) => setTimeout(r, 6_000));
    writeFileSync(join(first.path, "go"), "");
    expect(await merging).toBe("merged");
    expect(await waiting).toBe("merged");
    // The second was rebased onto the first's work: both landed, in order.
    expect((await git(repoPath, ["log", "--format=%s", "-2", "main"])).trim().split("\n")).toEqual(["P5", "P4 Add search"]);
    expect([await onBranch(repoPath, "main", "first.txt"), await onBranch(repoPath, "main", "second.txt")]).toEqual(["first", "second"]);
  });
});
