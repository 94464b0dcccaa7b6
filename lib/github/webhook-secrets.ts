import { LRUCache } from "lru-cache";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { decryptSecret } from "@/lib/crypto/secrets";

export interface RepoTarget {
  projectId: string;
  /** The connection's own webhook secret, else GITHUB_WEBHOOK_SECRET; null: no way to verify. */
  secret: string | null;
}

// Intake sees bursts (a review fans out into many deliveries): a short per-process cache spares
// a query and a decryption per delivery. Bounded, because repository names come from
// unauthenticated requests (one entry per name tried). A secret changed in another process:
// the new one verifies at once (a mismatch reads the row again, at most once a second per
// name, so forgeries cannot turn into a query each), the old one stops within the TTL.
const TTL_MS = 5_000;
const REFRESH_AFTER_MISMATCH_MS = 1_000;
export const REPO_TARGETS_CACHE_SIZE = 1000;
const cache = new LRUCache<string, { at: number; targets: Promise<RepoTarget[]> }>({ max: REPO_TARGETS_CACHE_SIZE });
const forcedAt = new LRUCache<string, number>({ max: REPO_TARGETS_CACHE_SIZE });

async function load(fullName: string): Promise<RepoTarget[]> {
  const [owner, repo] = fullName.split("/");
  const projects = await getDb().project.findMany({
    where: {
      repoKind: "github", archivedAt: null,
      githubOwner: { equals: owner, mode: "insensitive" }, githubRepo: { equals: repo, mode: "insensitive" },
    },
    select: { id: true, githubConnection: { select: { encryptedWebhookSecret: true } } },
    orderBy: { createdAt: "asc" },
  });
  const fallback = getEnv().GITHUB_WEBHOOK_SECRET ?? null;
  return projects.map((p) => {
    const sealed = p.githubConnection?.encryptedWebhookSecret;
    return { projectId: p.id, secret: sealed ? decryptSecret(sealed) : fallback };
  });
}

/** The projects a repository's deliveries are for, each with the secret that verifies them. */
export function repoTargets(fullName: string, now = Date.now()): Promise<RepoTarget[]> {
  const hit = cache.get(fullName.toLowerCase());
  if (hit && now - hit.at < TTL_MS) return hit.targets;
  return reload(fullName, now);
}

/**
 * The targets read again after a signature matched none of the cached ones (a rotated secret),
 * unless a mismatch made them read less than a second ago; null: nothing newer to try.
 */
export function freshRepoTargets(fullName: string, now = Date.now()): Promise<RepoTarget[]> | null {
  const key = fullName.toLowerCase();
  if (now - (forcedAt.get(key) ?? -Infinity) < REFRESH_AFTER_MISMATCH_MS) return null;
  forcedAt.set(key, now);
  return reload(fullName, now);
}

function reload(fullName: string, now: number): Promise<RepoTarget[]> {
  const key = fullName.toLowerCase();
  const targets = load(fullName);
  cache.set(key, { at: now, targets });
  targets.catch(() => cache.delete(key));
  return targets;
}

export function forgetRepoTargets(): void {
  cache.clear();
  forcedAt.clear();
}

export const cachedRepoTargetCount = () => cache.size;
