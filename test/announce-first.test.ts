// A process's first event: its producer connection is still opening when a change is announced
// (the offline queue is off, so a command sent then fails); the announcement waits for it.
import { describe, expect, it } from "vitest";
import { announce } from "@/lib/events/publish";
import { teamStreamKey } from "@/lib/events/streams";
import { closeRedis, getRedis } from "@/lib/redis/connections";
import { createTeamWithProject } from "./helpers/fixtures";

describe("announcing while the process's Redis connection still opens", () => {
  it("waits for the connection instead of losing the event", async () => {
    const { team } = await createTeamWithProject({ loopEnabled: false });
    // The next connection is a new one, as a process just started has.
    await closeRedis();
    expect(getRedis("producer").status).toBe("connecting");
    const id = await announce(team.id, { type: "activity", message: "first" });
    expect(id).not.toBeNull();
    const [[, fields]] = await getRedis("producer").xrange(teamStreamKey(team.id), id!, id!);
    expect(JSON.parse(fields[1])).toEqual({ type: "activity", message: "first" });
  });
});
