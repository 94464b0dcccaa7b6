import { createHash } from "node:crypto";
import { PROMPT_STATUSES, type PromptStatus } from "@/lib/prompts/schema";

export interface PromptSnapshot {
  hash: string;
  counts: Record<PromptStatus, number>;
  total: number;
}

export function promptSnapshot(prompts: ReadonlyArray<{ number: number; status: PromptStatus; filePath?: string | null }>): PromptSnapshot {
  const counts = Object.fromEntries(PROMPT_STATUSES.map((s) => [s, 0])) as Record<PromptStatus, number>;
  for (const prompt of prompts) counts[prompt.status] += 1;
  // Seed 000 hashes file names too: a renamed prompt file is a change. Sorted so that the order
  // the caller loaded prompts in never changes the hash.
  const lines = prompts.map((p) => `${p.number}:${p.status}:${p.filePath ?? ""}`).sort();
  const hash = createHash("sha1").update(lines.join("\n")).digest("hex");
  return { hash, counts, total: prompts.length };
}
