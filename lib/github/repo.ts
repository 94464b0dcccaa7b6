import { resolve } from "node:path";
import { getEnv } from "@/lib/env";
import { dataDir } from "@/lib/data-dir";
import { branchExists, GitError } from "@/lib/git";
import { ensureBareClone, fetchBranch, type RemoteAuth } from "@/lib/git/push";
import { gitToken, narrowGitToken, requireClient, type GithubClient } from "@/lib/github/client";
import { DomainError } from "@/lib/errors";

export interface GithubProject {
  id: string;
  teamId: string;
  githubOwner: string | null;
  githubRepo: string | null;
  githubConnectionId: string | null;
  baseBranch: string;
  activeBranch: string | null;
}

/** The project is not connected to a GitHub repository: a state its admin can change, not a failure of ours. */
export class NotConnectedError extends DomainError {
  constructor(message: string) {
    super(409, "not_connected", message);
  }
}

export function requireRepo(project: GithubProject) {
  if (!project.githubOwner || !project.githubRepo) throw new NotConnectedError("the project has no GitHub repository");
  if (!project.githubConnectionId) throw new NotConnectedError(`${project.githubOwner}/${project.githubRepo} has no GitHub connection: connect it in the project settings`);
  return { owner: project.githubOwner, repo: project.githubRepo, connectionId: project.githubConnectionId };
}

/** Where a GitHub project's bare clone lives; run worktrees hang off it. */
export const clonePath = (projectId: string) => resolve(dataDir(), "repos", `${projectId}.git`);

export const repoGitUrl = (owner: string, repo: string) =>
  getEnv().GITHUB_GIT_URL.replaceAll("{owner}", owner).replaceAll("{repo}", repo);

export async function remoteAuth(project: GithubProject): Promise<{ auth: RemoteAuth; client: GithubClient; owner: string; repo: string; botLogin: string | null }> {
  const { owner, repo, connectionId } = requireRepo(project);
  const { client, connection } = await requireClient(connectionId);
  return { auth: { url: repoGitUrl(owner, repo), token: await gitToken(client) }, client, owner, repo, botLogin: connection.botLogin };
}

/** The credential a remote runner fetches and pushes with: narrowed to this repository's contents where GitHub allows it. */
export async function runnerGitToken(project: GithubProject): Promise<string> {
  const { repo, connectionId } = requireRepo(project);
  const { client, connection } = await requireClient(connectionId);
  return narrowGitToken(client, connection, repo);
}

// Two runs starting together fetch the same ref; the loser of the ref update tries again.
async function fetchWithRetry(path: string, branch: string, auth: RemoteAuth): Promise<void> {
  try {
    await fetchBranch(path, branch, auth);
  } catch (error) {
    if (!(error instanceof GitError) || !/cannot lock ref|unable to update local ref/i.test(error.stderr)) throw error;
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    await fetchBranch(path, branch, auth);
  }
}

/**
 * The project's local clone with its base branch as GitHub has it now: a run branches from
 * there. A run continuing a pull request's branch this clone has never seen (another machine
 * opened it) gets that branch from GitHub first; a branch already here is never overwritten,
 * so local commits not yet pushed stay (invariant 5).
 */
export async function prepareGithubClone(project: GithubProject, workBranch?: string | null): Promise<string> {
  const { auth } = await remoteAuth(project);
  const path = clonePath(project.id);
  await ensureBareClone(path, auth);
  await fetchWithRetry(path, project.activeBranch ?? project.baseBranch, auth);
  if (workBranch && !(await branchExists(path, workBranch))) {
    await fetchBranch(path, workBranch, auth).catch((error) => {
      // Not on GitHub yet: the run starts the branch from the base.
      if (!(error instanceof GitError) || !/couldn't find remote ref/i.test(error.stderr)) throw error;
    });
  }
  return path;
}
