import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { getDb, type AgentModel as Agent } from "@/lib/db";
import type { RunnerCaller } from "@/lib/auth/runner-tokens";
import { DomainError } from "@/lib/errors";
import { branchExists, git, gitCheck } from "@/lib/git";
import { holderOf } from "@/lib/runners/runs";

// A run's work comes back as one branch's new commits: far below this; a larger body is refused
// before it is written out whole.
export const MAX_BUNDLE_BYTES = 100 * 1024 * 1024;

const notHeld = () => new DomainError(409, "conflict", "this runner does not hold the run (it was lost, cancelled or finished): stop its agent");

/**
 * The server's repository of a run the caller's agent holds. Only a project whose repository is a
 * path on the server is served as bundles: a runner fetches any other from its URL.
 */
async function heldLocalRun(caller: RunnerCaller, agent: Agent, runId: string) {
  const run = await getDb().run.findFirst({
    where: { id: runId, project: { teamId: caller.teamId, ...(caller.projectId ? { id: caller.projectId } : {}) } },
    select: { status: true, workerId: true, branch: true, project: { select: { repoKind: true, repoPath: true, baseBranch: true, activeBranch: true } } },
  });
  if (!run) throw new DomainError(404, "not_found", "run not found");
  if (run.workerId !== holderOf(agent) || run.status !== "running" || !run.branch) throw notHeld();
  const { project } = run;
  if (project.repoKind === "github" || !project.repoPath) throw new DomainError(409, "conflict", "the project's repository is fetched from its URL, not as a bundle");
  return { repoPath: project.repoPath, baseBranch: project.activeBranch ?? project.baseBranch, branch: run.branch };
}

/**
 * A `git bundle` of the run's base branch, and of its own branch when an earlier attempt left
 * one (a retry continues it): everything the runner needs to make its worktree.
 */
export async function runBaseBundle(caller: RunnerCaller, agent: Agent, runId: string): Promise<Buffer> {
  const { repoPath, baseBranch, branch } = await heldLocalRun(caller, agent, runId);
  const dir = mkdtempSync(join(tmpdir(), "rm-bundle-"));
  try {
    const file = join(dir, "base.bundle");
    const refs = [`refs/heads/${baseBranch}`, ...((await branchExists(repoPath, branch)) ? [`refs/heads/${branch}`] : [])];
    await git(repoPath, ["bundle", "create", "--quiet", file, ...refs]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes the body to `file`, refusing it (413) once it passes the limit. */
async function saveLimited(body: WebReadableStream<Uint8Array> | null, declared: number | null, file: string): Promise<void> {
  const tooLarge = () => new DomainError(413, "too_large", `the bundle must be at most ${MAX_BUNDLE_BYTES / 1024 / 1024} MiB`, "body");
  if (declared !== null && declared > MAX_BUNDLE_BYTES) throw tooLarge();
  if (!body) throw new DomainError(400, "invalid", "the body must be a git bundle", "body");
  let seen = 0;
  const source = Readable.fromWeb(body);
  source.on("data", (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > MAX_BUNDLE_BYTES) source.destroy(tooLarge());
  });
  await pipeline(source, createWriteStream(file));
}

/**
 * The run's work handed back as a bundle: verified against the project's repository (its
 * prerequisites must be there), holding the run's branch and nothing else, then fetched into
 * that branch as a fast-forward, as a push would be. Answers the branch's new head.
 */
export async function acceptRunBundle(caller: RunnerCaller, agent: Agent, runId: string, req: Request): Promise<{ branch: string; sha: string }> {
  const { repoPath, baseBranch, branch } = await heldLocalRun(caller, agent, runId);
  const dir = mkdtempSync(join(tmpdir(), "rm-bundle-"));
  try {
    const file = join(dir, "run.bundle");
    const length = req.headers.get("content-length");
    await saveLimited(req.body as WebReadableStream<Uint8Array> | null, length ? Number(length) : null, file);
    if (!(await gitCheck(repoPath, ["bundle", "verify", "--quiet", file]))) {
      throw new DomainError(400, "invalid", "the body is not a git bundle this project's repository can take (git bundle verify failed)", "body");
    }
    const heads = (await git(repoPath, ["bundle", "list-heads", file])).trim().split("\n").filter(Boolean).map((l) => l.split(" "));
    const wanted = `refs/heads/${branch}`;
    if (heads.length !== 1 || heads[0][1] !== wanted) throw new DomainError(400, "invalid", `the bundle must hold exactly the run's branch ${branch}`, "body");
    if (branch === baseBranch) throw new DomainError(400, "invalid", "the run's branch is the base branch", "body");
    const fetched = await gitCheck(repoPath, ["fetch", "--quiet", "--no-tags", file, `${wanted}:${wanted}`]);
    if (!fetched) throw new DomainError(409, "conflict", `the bundle does not fast-forward ${branch} in the project's repository`, "body");
    return { branch, sha: heads[0][0] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
