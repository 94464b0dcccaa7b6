import { existsSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { git } from "@/lib/git";
import { mergeRun } from "@/lib/runs/merge";
import { awaitingMerge, onBranch } from "./helpers/merge";
import { activity, emptyQueues } from "./helpers/runs";

// This process has no sandbox (set before anything reads the env): bubblewrap is "missing",
// so every verify's sandbox fails to open.
Object.assign(process.env, { SANDBOX_BWRAP: "/nonexistent/bwrap" });

beforeEach(emptyQueues);

const REFUSED = "refused: agents run only inside the sandbox, and bubblewrap (/nonexistent/bwrap) is not installed: apt-get install bubblewrap; an admin can opt this project into unsandboxed runs";

describe("a merge whose verify cannot be sandboxed", () => {
  it("fails without running the verify, spending an attempt and keeping the work; without a verify the merge needs no sandbox", async () => {
    const { project, prompt, run, path, repoPath } = await awaitingMerge();
    const base = (await git(repoPath, ["rev-parse", "main"])).trim();
    // Were it run, the verify would pass and leave a mark in the worktree.
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { verifyCommand: "touch verified" } });
    const acts = await activity(project.id);

    expect(await mergeRun(run.id)).toBe("failed");
    const error = `verify failed after rebase: ${REFUSED}`;
    expect(await getDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ mergeStatus: "failed", error, mergedSha: null });
    expect(await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ status: "pending", attempts: 1, branch: null, failureLog: `Merge failed: ${error}` });
    expect(existsSync(`${path}/verified`)).toBe(false);
    expect(existsSync(path)).toBe(true);
    expect((await git(repoPath, ["rev-parse", "main"])).trim()).toBe(base);
    expect((await activity(project.id)).slice(acts.length).map((a) => a.message))
      .toEqual([`#4 Add search: merge failed (${error}); back to the queue to be redone from the current base; work kept at ${path}`]);

    const other = await awaitingMerge();
    expect(await mergeRun(other.run.id)).toBe("merged");
    expect(await onBranch(other.repoPath, "main", "shared.txt")).toBe("from the run");
  });
});
