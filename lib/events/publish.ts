import { getLogger } from "@/lib/log";
import { readyProducer } from "@/lib/redis/connections";
import { TEAM_STREAM_MAXLEN, teamStreamKey, type TeamEvent } from "@/lib/events/streams";

/**
 * Announces a change already committed to Postgres. A failure to announce is logged,
 * never thrown: the state is safe and the next tick or page load re-reads it.
 */
export async function announce(teamId: string, event: TeamEvent): Promise<string | null> {
  try {
    // A process's first announce may come before its connection opened: it waits for that.
    return await (await readyProducer()).xadd(
      teamStreamKey(teamId), "MAXLEN", "~", String(TEAM_STREAM_MAXLEN), "*", "e", JSON.stringify(event),
    );
  } catch (err) {
    getLogger("events").warn({ err: (err as Error).message, type: event.type }, "announce failed");
    return null;
  }
}
