// The tick's and a run start's hot statements are parsed and planned once per pooled connection
// (lib/db/prepared.ts), and what they return survives a migration that adds columns under them.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb, getDb, getPool } from "@/lib/db";
import { lockAndLoad, loadTickSnapshot } from "@/lib/loop/load";
import { getClaimProfile } from "@/lib/runs/claim";
import { createPrompt } from "@/lib/prompts/create";
import { createBareProject } from "./helpers/runs";

// One connection, so the statements it keeps are the ones these calls made.
const holder = globalThis as unknown as { __ringmasterDb?: ReturnType<typeof createDb> };
let real: ReturnType<typeof createDb> | undefined;
beforeEach(() => {
  real = holder.__ringmasterDb;
  holder.__ringmasterDb = createDb(process.env.DATABASE_URL!, 1);
});
afterEach(async () => {
  const single = holder.__ringmasterDb!;
  holder.__ringmasterDb = real;
  await single.db.$disconnect();
  await single.pool.end();
});

const kept = async () => (await getPool().query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements ORDER BY prepare_time`)).rows.map((r) => r.statement);
const unlock = (projectId: string) => getPool().query(`UPDATE "LoopState" SET "tickLockedUntil" = NULL, "tickLockedBy" = NULL WHERE "projectId" = $1`, [projectId]);

describe("hot statements, prepared", () => {
  it("are parsed and planned once by a connection, which keeps them for the next time", async () => {
    const { project, profile } = await createBareProject();
    for (let i = 0; i < 3; i++) {
      expect(await lockAndLoad(project.id, "me", 60_000)).toMatchObject({ project: { id: project.id } });
      await unlock(project.id);
      expect(await loadTickSnapshot(project.id)).toMatchObject({ project: { id: project.id } });
      expect(await getClaimProfile(profile.id)).toMatchObject({ id: profile.id, adapter: "demo" });
    }
    const statements = await kept();
    expect(statements.filter((s) => s.trim().startsWith("WITH locked AS"))).toHaveLength(1);
    expect(statements.filter((s) => s.includes(`FROM "AgentProfile" WHERE id = $1`))).toHaveLength(1);
    expect(statements).toHaveLength(3);
  });

  it("still answer after a migration adds columns to the tables they read and write", async () => {
    const { project } = await createBareProject();
    const actor = { kind: "user" as const, id: "u", teamId: project.teamId, role: "owner" as const, projectId: null };
    await createPrompt(actor, project, { title: "before" });
    await lockAndLoad(project.id, "me", 60_000);
    await unlock(project.id);
    for (const table of ["LoopState", "Project", "ProjectSettings", "Prompt"]) await getPool().query(`ALTER TABLE "${table}" ADD COLUMN "laterColumn" int`);
    const made = await createPrompt(actor, project, { title: "after" });
    expect(made).toMatchObject({ title: "after", number: 2 });
    const snap = await lockAndLoad(project.id, "me", 60_000);
    expect(snap?.prompts.map((p) => p.title).sort()).toEqual(["after", "before"]);
    expect((await getDb().prompt.count({ where: { projectId: project.id } }))).toBe(2);
  });
});
