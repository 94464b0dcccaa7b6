// The tick's, a run start's and the webhook intake's hot statements are parsed and planned once per pooled connection
// (lib/db/prepared.ts), and what they return survives a migration that adds columns under them.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb, getDb, getPool } from "@/lib/db";
import { lockAndLoad, loadTickSnapshot } from "@/lib/loop/load";
import { getClaimProfile } from "@/lib/runs/claim";
import { createPrompt } from "@/lib/prompts/create";
import { storeDelivery } from "@/lib/github/delivery-store";
import { createBareProject } from "./helpers/runs";
import { slackTeam, startSlackDouble } from "./helpers/slack-fixtures";

const double = await startSlackDouble();
afterAll(() => double.stop());
// Made on the suite's pool: its set-up needs more than the one connection the tests below keep.
let slack: Awaited<ReturnType<typeof slackTeam>>;
beforeAll(async () => { slack = await slackTeam(double); });

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

  it("include the webhook intake's store: kept per batch size up to 32 rows, a larger batch planned each time", async () => {
    const delivery = (deliveryId: string) => ({ deliveryId, event: "issue_comment", action: "created", projectId: null, status: "received" as const, payload: `{"n":"${deliveryId}"}`, subject: "#1" });
    // One at a time: a batch of one row each time, one kept statement.
    for (let i = 0; i < 3; i++) expect(await storeDelivery(delivery(randomUUID()))).toEqual({ outboxId: expect.any(String) });
    // Forty at once: the first goes alone, the 39 that came while it was written go together.
    const burst = await Promise.all(Array.from({ length: 40 }, () => storeDelivery(delivery(randomUUID()))));
    expect(burst.every((s) => s?.outboxId)).toBe(true);
    // Two at once: the first alone (its kept statement again), then a batch of one.
    await Promise.all([storeDelivery(delivery(randomUUID())), storeDelivery(delivery(randomUUID()))]);
    const stores = (await kept()).filter((s) => s.includes(`INSERT INTO "WebhookDelivery"`));
    expect(stores).toHaveLength(1);
    expect(stores[0].match(/'github', \$/g)).toHaveLength(1);

    for (let i = 0; i < 3; i++) expect(await (await slack.send({ type: "message", channel: slack.channelId, user: "U0ALICE", text: `note ${i}`, ts: double.ts() })).json()).toEqual({ accepted: true });
    expect((await kept()).filter((s) => s.includes(`'slack', $2`))).toHaveLength(1);
  });
});
