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
    await publishOutbox(rows);
    expect(await nudges(project.id)).toEqual([]);
  });
});
