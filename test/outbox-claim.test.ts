import { Client } from "pg";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getQueue, publishOutbox, recordOutbox, relayOutbox } from "@/lib/queues";
import { createTeamWithProject } from "./helpers/fixtures";

const nudges = async (projectId: string) => (await getQueue("tick").getJobs(["waiting", "delayed", "prioritized", "active", "completed"]))
  .filter((j) => j.name === "nudge" && j.data.projectId === projectId).map((j) => j.data.reason);

describe("the outbox's fast path", () => {
  it("publishes a committed wake-up once and removes it", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const rows = await getDb().$transaction((tx) => recordOutbox(tx, [{ kind: "tick", projectId: project.id, reason: "in time" }]));
    await publishOutbox(rows);
    expect(await nudges(project.id)).toEqual(["in time"]);
    expect(await getDb().outbox.count({ where: { id: { in: rows.map((r) => BigInt(r.id)) } } })).toBe(0);
  });

  it("sends nothing for a row the relay already delivered while the caller was slow", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const rows = await getDb().$transaction((tx) => recordOutbox(tx, [{ kind: "tick", projectId: project.id, reason: "merge merged" }]));
    // The caller (a merge removing its worktree) outlasted the relay's window; the relay sent it.
    await getDb().outbox.updateMany({ where: { id: { in: rows.map((r) => BigInt(r.id)) } }, data: { createdAt: new Date(Date.now() - 60_000) } });
    expect(await relayOutbox()).toBe(1);
    expect(await nudges(project.id)).toEqual(["merge merged"]);
    // A worker consumed that wake-up; the late fast path must not wake the project again.
    await getQueue("tick").obliterate({ force: true });
    await publishOutbox(rows.map((r) => ({ ...r, writtenAfter: performance.now() - 60_000 })));
    expect(await nudges(project.id)).toEqual([]);
  });

  it("sends a row written a moment ago even while another session holds it, and leaves its delete to that session", async () => {
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const rows = await getDb().$transaction((tx) => recordOutbox(tx, [{ kind: "tick", projectId: project.id, reason: "fresh" }]));
    const relay = new Client({ connectionString: process.env.DATABASE_URL });
    await relay.connect();
    try {
      await relay.query("BEGIN");
      await relay.query(`SELECT id FROM "Outbox" WHERE id = $1 FOR UPDATE`, [rows[0].id]);
      // Its DELETE skips the row held elsewhere rather than waiting for that session to end. (Stamped
      // as the publish begins: the other session's connection and lock take no part of the window.)
      await publishOutbox(rows.map((r) => ({ ...r, writtenAfter: performance.now() })));
      expect(await nudges(project.id)).toEqual(["fresh"]);
      await relay.query("COMMIT");
    } finally {
      await relay.end();
    }
    expect(await getDb().outbox.count({ where: { id: BigInt(rows[0].id) } })).toBe(1);
  });
});
