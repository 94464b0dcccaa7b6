import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The whole source, read as text: a prompt update whose `data` names `status` anywhere but in
// lib/prompts/transitions.ts would be a second writer of a prompt's status.
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" || e.name === "node_modules" ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });

/** The argument text of every prompt.update/updateMany/upsert/createMany call in a file. */
function promptWrites(text: string): string[] {
  const calls: string[] = [];
  for (const m of text.matchAll(/\bprompt\.(update|updateMany|upsert)\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; depth > 0 && i < text.length; i++) depth += text[i] === "(" ? 1 : text[i] === ")" ? -1 : 0;
    calls.push(text.slice(m.index, i));
  }
  return calls;
}

// `...statusColumns(…)` is the owner's own way to name the status (lib/runs/claim-statement.ts
// uses it for the claim's one SQL statement); in another module's prompt update it is a second writer too.
const writesStatus = (call: string) => /\b(data|update|create)\s*:\s*\{[^}]*(\bstatus\s*:|\.\.\.statusColumns\()/.test(call);

describe("a prompt's status has one writer", () => {
  it("finds the owner's own write (the check can see one)", () => {
    const owner = promptWrites(readFileSync("lib/prompts/transitions.ts", "utf8"));
    expect(owner.filter(writesStatus)).toHaveLength(1);
  });

  it("finds no other module writing Prompt.status", () => {
    const others = ["lib", "app", "workers"].flatMap(sources).filter((f) => f !== join("lib", "prompts", "transitions.ts"));
    const offenders = others.flatMap((f) => promptWrites(readFileSync(f, "utf8")).filter(writesStatus).map((call) => `${f}: ${call.slice(0, 80)}`));
    expect(offenders).toEqual([]);
  });
});
