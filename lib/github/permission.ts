import { LRUCache } from "lru-cache";
import type { GithubClient } from "@/lib/github/client";
import { canWrite } from "@/lib/github/mention-text";

// A person's access changes rarely, a busy review sends a burst of deliveries: one question to
// GitHub per person and repository per five minutes. A revoked writer is refused within that.
export const PERMISSION_TTL_MS = 5 * 60_000;
const cache = new LRUCache<string, Promise<boolean>>({ max: 5000, ttl: PERMISSION_TTL_MS });

/**
 * Whether `login` may push to the repository, asked through GitHub's collaborator permission
 * endpoint. Someone GitHub does not know as a collaborator (404) may not.
 */
export function hasWriteAccess(client: GithubClient, connectionId: string, owner: string, repo: string, login: string): Promise<boolean> {
  const key = `${connectionId}\n${owner}/${repo}\n${login}`.toLowerCase();
  const hit = cache.get(key);
  if (hit) return hit;
  const answer = client.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login })
    .then(({ data }) => canWrite(data), (err: { status?: number }) => {
      if (err.status === 404) return false;
      throw err;
    });
  cache.set(key, answer);
  // A failed question is asked again next time, not remembered as a refusal.
  answer.catch(() => cache.delete(key));
  return answer;
}

export const forgetPermissions = () => cache.clear();
