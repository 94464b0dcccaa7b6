import { getDb, Prisma } from "@/lib/db";
import { wakeRunners } from "@/lib/redis/runner-wake";

type Tx = Prisma.TransactionClient;

// `@name` where name is a runner agent's name without spaces; a sentence's full stop is not part of it.
const MENTION = /(?:^|[^\w@])@([\w][\w.:-]*)/g;

export function mentionedNames(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[1].replace(/[.:-]+$/, "")).filter(Boolean))].slice(0, 20);
}

/**
 * The runner agent a turn names with `@name`: one of the project's team that may work on the
 * project, the first named in the text. A run's words never mention the agent that runs it (an
 * agent must not wake itself).
 */
export async function mentionedAgentId(tx: Tx, projectId: string, text: string, author: { actorId?: string | null }): Promise<string | null> {
  const names = mentionedNames(text);
  if (!names.length) return null;
  const rows = await tx.$queryRaw<{ id: string; name: string }[]>`
    SELECT a.id, a.name FROM "Agent" a JOIN "Project" p ON p.id = ${projectId} AND p."teamId" = a."teamId"
    WHERE a.name IN (${Prisma.join(names)}) AND (a."projectId" IS NULL OR a."projectId" = p.id)
      AND NOT EXISTS (SELECT 1 FROM "Run" r WHERE r.id = ${author.actorId ?? null} AND r."remoteAgentId" = a.id)`;
  const byName = new Map(rows.map((r) => [r.name, r.id]));
  return names.map((n) => byName.get(n)).find(Boolean) ?? null;
}

/** A mention is work for a runner: its held long-poll answers at once. */
export async function wakeMentioned(threadId: string): Promise<void> {
  const thread = await getDb().thread.findUnique({ where: { id: threadId }, select: { project: { select: { teamId: true } } } });
  if (thread) await wakeRunners(thread.project.teamId);
}
