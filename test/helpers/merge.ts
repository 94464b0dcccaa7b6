import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDb } from "@/lib/db";
import { commitAll, createWorktree, git } from "@/lib/git";
import { addPrompt, createTeamWithProject } from "./fixtures";

export const BRANCH = "ringmaster/4-add-search";

type Fixture = Awaited<ReturnType<typeof createTeamWithProject>>;

/**
 * A succeeded run whose worktree holds one commit writing `file` (default `shared.txt`), waiting
 * for its merge; in a new project, or in `opts.fixture`'s as prompt `opts.number`.
 */
export async function awaitingMerge(content = "from the run\n", opts: { maxAttempts?: number; fixture?: Fixture; number?: number; file?: string } = {}) {
  const fixture = opts.fixture ?? (await createTeamWithProject({ loopEnabled: false }));
  const { project, profile, repoPath } = fixture;
  const number = opts.number ?? 4;
  const branch = number === 4 ? BRANCH : `ringmaster/${number}-work`;
  const added = await addPrompt(project.id, { number, title: number === 4 ? "Add search" : `Work ${number}`, body: "" });
  const prompt = await getDb().prompt.update({ where: { id: added.id }, data: { status: "in_progress", branch, maxAttempts: opts.maxAttempts ?? 3 } });
  const path = join(mkdtempSync(join(tmpdir(), "rm-wt-")), "wt");
  await createWorktree({ repoPath, path, branch, baseBranch: "main" });
  writeFileSync(join(path, opts.file ?? "shared.txt"), content);
  const commitSha = await commitAll(path, number === 4 ? "P4 Add search" : `P${number}`, "main");
  const run = await getDb().run.create({
    data: {
      projectId: project.id, promptId: prompt.id, kind: "executor", status: "succeeded", adapter: "demo", agentProfileId: profile.id,
      branch, worktreePath: path, commitSha, mergeStatus: "pending", finishedAt: new Date(),
    },
  });
  return { ...fixture, prompt, run, path };
}

/** A file's content on a branch, trimmed; null where the branch lacks it. */
export const onBranch = (repoPath: string, branch: string, file: string) => git(repoPath, ["show", `${branch}:${file}`]).then((s) => s.trim(), () => null);
