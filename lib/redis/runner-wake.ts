import { getLogger } from "@/lib/log";
import { getRedis, readyRedis, redisKey } from "@/lib/redis/connections";

// One Redis channel for every team: a wake-up names the team, and each web process hands it
// to the long-polls it holds for that team (lib/runners/wake.ts). It lives down here so every
// layer that makes work for runners (a queued run, an offer, a mention, a finished worker run)
// can wake them. Pub/sub is enough: a wake-up is a hint (the poll re-reads Postgres), and one
// lost while Redis is away is caught by the poll's own timeout.
export const runnerWakeChannel = () => redisKey("runners", "wake");

/** Tells every long-poll of the team that there may be work. */
export async function wakeRunners(teamId: string): Promise<void> {
  try {
    // The producer refuses commands until it is connected (no offline queue): wait for it briefly.
    await (await readyRedis(getRedis("producer"), 2_000)).publish(runnerWakeChannel(), teamId);
  } catch (err) {
    getLogger("runners").warn({ err: (err as Error).message }, "runner wake-up not published (polls catch up at their timeout)");
  }
}
