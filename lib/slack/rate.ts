import { getRedis, redisKey } from "@/lib/redis/connections";

/** Messages per Slack user per minute that become work; more are answered politely. */
export const RATE_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

// One script, so the look and the admission are one step for Redis: messages handled at the same
// moment by several workers cannot all slip under the limit. A message already admitted (a
// retried job) is admitted again; a refused one is not kept, so it uses up no quota.
const ADMIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[4]))
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

/** Whether a person's message fits their last minute (a sliding window, one member per message). */
export async function withinRate(teamId: string, slackUserId: string, message: string, now = Date.now()): Promise<boolean> {
  const admitted = await getRedis("producer").eval(ADMIT, 1, redisKey("slack-rate", teamId, slackUserId), now, message, RATE_PER_MINUTE, WINDOW_MS);
  return admitted === 1;
}
