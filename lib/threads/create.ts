import { getDb, Prisma, type ThreadModel as Thread } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { appendTurn } from "@/lib/threads/append";
import { announceThreadChange } from "@/lib/threads/events";
import { threadInput } from "@/lib/threads/schema";

/**
 * A prompt's conversation: created the first time anyone asks, once (Thread.promptId is unique,
 * so two racing callers end with the same row).
 */
export async function ensurePromptThread(prompt: { id: string; projectId: string; title: string }): Promise<Thread> {
  const db = getDb();
  const found = await db.thread.findUnique({ where: { promptId: prompt.id } });
  if (found) return found;
  try {
    return await db.thread.create({ data: { projectId: prompt.projectId, promptId: prompt.id, title: prompt.title } });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      return db.thread.findUniqueOrThrow({ where: { promptId: prompt.id } });
    }
    throw err;
  }
}

/**
 * A free-standing thread with the project's lead agent ("why did run 12 fail?"), optionally
 * opened with the person's first turn. The caller has checked the project.
 */
export async function createThread(actor: Actor, project: { id: string }, raw: unknown): Promise<Thread> {
  const input = threadInput.parse(raw);
  const thread = await getDb().thread.create({ data: { projectId: project.id, title: input.title } });
  if (input.text) await appendTurn(thread.id, { actor: "person", actorId: `${actor.kind}:${actor.id}`, text: input.text });
  else await announceThreadChange(thread.id);
  return thread;
}
