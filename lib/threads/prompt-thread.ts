import { getDb } from "@/lib/db";
import { ensurePromptThread } from "@/lib/threads/create";
import { getThreadDetail } from "@/lib/threads/queries";

/** A prompt's thread with its turns; the caller has checked the prompt. */
export async function getPromptThread(promptId: string) {
  const prompt = await getDb().prompt.findUniqueOrThrow({ where: { id: promptId }, select: { id: true, projectId: true, title: true } });
  return getThreadDetail((await ensurePromptThread(prompt)).id);
}
