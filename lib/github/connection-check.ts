import { getDb } from "@/lib/db";
import { requireProject, type Actor } from "@/lib/auth/actor";
import { requireClient } from "@/lib/github/client";
import { branchHeadOn, type GithubBranchHead } from "@/lib/github/branch-head";
import { requireRepo } from "@/lib/github/repo";

export type ConnectionCheck =
  | { ok: true; login: string | null; repository: string; head: GithubBranchHead }
  | { ok: false; step: "credentials" | "repository" | "branch"; message: string };

const statusOf = (err: unknown) => (err as { status?: number }).status;

/**
 * The settings page's "Test connection": the stored credentials reach the repository and its
 * base branch, read now from GitHub (nothing is cached, nothing is changed).
 */
export async function checkConnection(actor: Actor, projectId: string): Promise<ConnectionCheck> {
  const project = await requireProject(actor, projectId, "admin");
  const { owner, repo, connectionId } = requireRepo(project);
  let stored;
  try {
    stored = await requireClient(connectionId);
  } catch (err) {
    return { ok: false, step: "credentials", message: `GitHub refused the stored credentials (${statusOf(err) ?? (err as Error).message})` };
  }
  const { client, connection } = stored;
  const repository = `${owner}/${repo}`;
  try {
    await client.rest.repos.get({ owner, repo });
  } catch (err) {
    return { ok: false, step: "repository", message: `${repository} is not reachable with these credentials (GitHub answered ${statusOf(err) ?? (err as Error).message})` };
  }
  try {
    const head = await branchHeadOn(client, owner, repo, project.activeBranch ?? project.baseBranch);
    return { ok: true, login: connection.botLogin, repository, head };
  } catch (err) {
    const message = statusOf(err) ? `GitHub answered ${statusOf(err)}` : (err as Error & { issues?: Array<{ message: string }> }).issues?.[0]?.message ?? (err as Error).message;
    return { ok: false, step: "branch", message: `branch ${project.activeBranch ?? project.baseBranch} ${message}` };
  }
}

/** The last webhook deliveries GitHub sent for a project, newest first, without their payloads. */
export async function listDeliveries(actor: Actor, projectId: string, take = 20) {
  const project = await requireProject(actor, projectId);
  return getDb().webhookDelivery.findMany({
    where: { provider: "github", projectId: project.id },
    select: { deliveryId: true, event: true, action: true, status: true, error: true, receivedAt: true, processedAt: true },
    orderBy: { receivedAt: "desc" },
    take,
  });
}
