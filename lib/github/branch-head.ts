import { z } from "zod";
import type { GithubClient } from "@/lib/github/client";
import { requireClient } from "@/lib/github/client";

export type GithubBranchHead = { branch: string; sha: string; subject: string };

const invalid = (message: string, input: string) => new z.ZodError([{ code: "custom", path: ["baseBranch"], message, input }]);

/** The head of a branch on GitHub; a missing branch is a field error on baseBranch. */
export async function branchHeadOn(client: GithubClient, owner: string, repo: string, branch: string): Promise<GithubBranchHead> {
  try {
    const { data } = await client.rest.repos.getBranch({ owner, repo, branch });
    return { branch, sha: data.commit.sha, subject: data.commit.commit.message.split("\n")[0] };
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw invalid(`does not exist in ${owner}/${repo} on GitHub`, branch);
    throw err;
  }
}

/**
 * Checks a GitHub project's branch when the project is connected; before that there are no
 * credentials to ask with, and connecting checks it instead.
 */
export async function requireGithubBranchHead(
  project: { githubOwner: string | null; githubRepo: string | null; githubConnectionId: string | null }, branch: string,
): Promise<GithubBranchHead | null> {
  if (!project.githubConnectionId || !project.githubOwner || !project.githubRepo) return null;
  const { client } = await requireClient(project.githubConnectionId);
  return branchHeadOn(client, project.githubOwner, project.githubRepo, branch);
}
