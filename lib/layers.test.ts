import { readdirSync } from "node:fs";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { LAYERS } from "@/eslint.config.js";

const eslint = new ESLint();
const messagesFor = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath })).flatMap((r) => r.messages).filter((m) => m.ruleId === "no-restricted-imports");

describe("the layer rule (eslint.config.js)", () => {
  it("fails an import from a lower layer into a higher one", async () => {
    const messages = await messagesFor("lib/runs/fixture.ts", 'import { tick } from "@/lib/loop/tick";\nexport const t = tick;\n');
    expect(messages.map((m) => [m.line, m.severity])).toEqual([[1, 2]]);
    expect(messages[0].message).toContain("a lower layer (runs) must not import a higher one");
  });

  it("fails a type-only import upward, a root module importing a folder, and a relative climb", async () => {
    expect(await messagesFor("lib/auth/fixture.ts", 'import type { X } from "@/lib/teams/members";\nexport type Y = X;\n')).toHaveLength(1);
    expect(await messagesFor("lib/slug.ts", 'import { getDb } from "@/lib/db";\nexport const d = getDb;\n')).toHaveLength(1);
    expect(await messagesFor("lib/runs/fixture.ts", 'import { x } from "../loop/tick";\nexport const y = x;\n')).toHaveLength(1);
  });

  it("lets a module import its own layer and the ones below", async () => {
    const code = 'import { a } from "@/lib/runs/claim";\nimport { b } from "@/lib/github/publish";\nimport { c } from "@/lib/db";\nimport { d } from "@/lib/env";\nexport const all = [a, b, c, d];\n';
    expect(await messagesFor("lib/runs/fixture.ts", code)).toEqual([]);
  });

  it("keeps the database out of app/: pages and routes read through lib", async () => {
    const messages = await messagesFor("app/api/fixture/route.ts", 'import { getDb } from "@/lib/db";\nexport const d = getDb;\n');
    expect(messages.map((m) => m.message)).toEqual([expect.stringContaining("app/ reads through lib/<entity> query modules")]);
    expect(await messagesFor("app/(dashboard)/fixture.tsx", 'import type { X } from "@/lib/db/generated/models";\nexport type Y = X;\n')).toHaveLength(1);
    expect(await messagesFor("app/api/fixture/route.ts", 'import { listPrompts } from "@/lib/prompts/queries";\nexport const l = listPrompts;\n')).toEqual([]);
  });

  it("places every folder and root module of lib/ in exactly one layer", () => {
    const placed = LAYERS.flat();
    const present = readdirSync("lib", { withFileTypes: true })
      .filter((e) => e.isDirectory() || (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")))
      .map((e) => e.name.replace(/\.ts$/, ""));
    expect([...present].sort()).toEqual([...placed].sort());
  });
});
