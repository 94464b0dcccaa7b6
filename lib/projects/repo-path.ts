import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { dataDir } from "@/lib/data-dir";

// A team admin names a local repository path, and Ringmaster then reads, branches and merges
// there with the server's rights: it must lie under the operator's roots, symlinks resolved,
// and belong to one team only (another team's repository, /, /etc or the data folder never).

const invalid = (message: string, input: string) => new z.ZodError([{ code: "custom", path: ["repoPath"], message, input }]);

/** Where local repositories may live: REPO_ROOTS, or the data folder's repos/. */
export const repoRoots = (): string[] => getEnv().REPO_ROOTS ?? [resolve(dataDir(), "repos")];

const inside = (parent: string, child: string) => {
  const rel = relative(parent, child);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};

async function realRoots(): Promise<string[]> {
  const roots = await Promise.all(repoRoots().map((r) => realpath(r).catch(() => null)));
  return roots.filter((r): r is string => r !== null);
}

/**
 * Resolves a local repository path for a team's project, or throws a field error on repoPath.
 * Returns the canonical path (symlinks resolved), which is what the project stores.
 */
export async function requireRepoPath(teamId: string, path: string): Promise<string> {
  const real = await realpath(path).catch(() => null);
  if (!real) throw invalid("does not exist on the server", path);
  const roots = await realRoots();
  if (!roots.some((root) => inside(root, real))) {
    throw invalid(`must be a repository under ${repoRoots().join(" or ")} (the server's REPO_ROOTS)`, path);
  }
  const data = await realpath(dataDir());
  if (real === data || inside(resolve(data, "worktrees"), real) || (await isGithubClone(resolve(data, "repos"), real))) {
    throw invalid("is inside Ringmaster's data folder", path);
  }
  // The same repository, one inside it or one around it: git would find the other's .git.
  const [taken] = await getDb().$queryRaw<unknown[]>`
    SELECT 1 FROM "Project" WHERE "repoKind" = 'local' AND "teamId" <> ${teamId}
      AND ("repoPath" = ${real} OR starts_with(${real}, "repoPath" || '/') OR starts_with("repoPath", ${real} || '/'))
    LIMIT 1`;
  if (taken) throw invalid("belongs to another team's project", path);
  return real;
}

// Ringmaster's own clone of a GitHub project: <data>/repos/<project id>.git.
async function isGithubClone(clones: string, real: string): Promise<boolean> {
  if (!inside(clones, real)) return false;
  const first = relative(clones, real).split(sep)[0];
  if (!first.endsWith(".git")) return false;
  return (await getDb().project.count({ where: { id: first.slice(0, -4), repoKind: "github" } })) > 0;
}
