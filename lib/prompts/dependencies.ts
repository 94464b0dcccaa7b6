import { z } from "zod";
import { getDb } from "@/lib/db";

/**
 * Refuses dependencies on prompts that do not exist in the project's current plan: such a prompt
 * could never run, and would wait unseen. `alsoKnown` are numbers being created in the same call.
 */
export async function requireKnownDependencies(
  project: { id: string; planningKey: string }, dependencies: number[], alsoKnown: number[] = [], path: PropertyKey[] = ["dependencies"],
) {
  const wanted = [...new Set(dependencies)].filter((n) => !alsoKnown.includes(n));
  if (wanted.length === 0) return;
  const found = await getDb().prompt.findMany({
    where: { projectId: project.id, planningKey: project.planningKey, number: { in: wanted } }, select: { number: true },
  });
  const missing = wanted.filter((n) => !found.some((f) => f.number === n)).sort((a, b) => a - b);
  if (missing.length === 0) return;
  const list = missing.map((n) => `#${n}`).join(", ");
  const message = missing.length === 1 ? `names prompt ${list}, which does not exist` : `names prompts ${list}, which do not exist`;
  throw new z.ZodError([{ code: "custom", path, message, input: missing }]);
}
