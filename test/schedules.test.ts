import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getQueue, tickSchedulerId, upsertTickScheduler } from "@/lib/queues";
import { getRedis, redisKey } from "@/lib/redis/connections";
import { ensureTickSchedules } from "@/lib/loop/schedules";
import { archiveProject } from "@/lib/projects/update";
import { createTeamWithProject } from "./helpers/fixtures";

const schedulers = async () => (await getQueue("tick").getJobSchedulers(0, -1)).map((s) => [s.key, s.every]).sort();

describe("tick schedules are rebuilt from Postgres", () => {
  it("after Redis forgot them: every active project's scheduler is back at its interval, nudged once; an archived one has none", async () => {
    const a = await createTeamWithProject();
    const b = await createTeamWithProject();
    const gone = await createTeamWithProject();
    await getDb().projectSettings.update({ where: { projectId: b.project.id }, data: { tickIntervalMs: 2000 } });
    await archiveProject(gone.project);
    // What FLUSHALL leaves: no scheduler, no marker; plus a stale scheduler of the archived project.
    for (const { project } of [a, b]) await getQueue("tick").removeJobScheduler(tickSchedulerId(project.id));
    await upsertTickScheduler(gone.project.id, 5000);
    await getRedis("producer").del(redisKey("schedules", "built"));

    expect(await ensureTickSchedules({ force: false })).toBe(2);
    expect(await schedulers()).toEqual([[tickSchedulerId(a.project.id), 5000], [tickSchedulerId(b.project.id), 2000]].sort());
    const nudges = (await getQueue("tick").getJobs(["waiting", "delayed"])).filter((j) => j.name === "nudge" && j.data.reason === "schedules rebuilt");
    expect(nudges.map((j) => j.data.projectId).sort()).toEqual([a.project.id, b.project.id].sort());

    // With the marker in place nothing is read again, and a forced check changes nothing.
    expect(await ensureTickSchedules({ force: false })).toBeNull();
    expect(await ensureTickSchedules({ force: true })).toBe(0);
    expect(await schedulers()).toHaveLength(2);
  });
});
