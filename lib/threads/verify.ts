import { getDb } from "@/lib/db";
import { ControlError } from "@/lib/errors";
import { AccessError } from "@/lib/auth/access";
import { promptTarget } from "@/lib/threads/routing";

/** What a verify turn may name: a prompt of the project by its number, or one of its runs. */
export const VERIFY_TARGET = /^(prompt:#?\d{1,9}|run:[a-z0-9]{1,40})$/;

/**
 * The target a verify turn carries, as the agent named it (not its thread's own prompt),
 * resolved inside the agent's project: `prompt:12` → `prompt:<id>`, `run:<id>` kept. Another
 * project's prompt or run is not found (404), as if it did not exist.
 */
export async function resolveVerifyTarget(projectId: string, target: string): Promise<string> {
  if (!VERIFY_TARGET.test(target)) throw new ControlError("target", "must be prompt:<number> or run:<id>", 400);
  const [kind, ref] = target.split(":");
  if (kind === "prompt") {
    const prompt = await getDb().prompt.findFirst({ where: { projectId, number: Number(ref.replace("#", "")) }, select: { id: true } });
    if (!prompt) throw new AccessError(404, "prompt not found");
    return promptTarget(prompt.id);
  }
  const run = await getDb().run.findFirst({ where: { id: ref, projectId }, select: { id: true } });
  if (!run) throw new AccessError(404, "run not found");
  return `run:${run.id}`;
}
