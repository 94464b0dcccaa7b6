import type { Redis } from "ioredis";
import { getLogger } from "@/lib/log";
import { createRedis } from "@/lib/redis/connections";
import { runnerWakeChannel as channel } from "@/lib/redis/runner-wake";

export { wakeRunners } from "@/lib/redis/runner-wake";

type Waiter = () => void;

const holder = globalThis as unknown as { __ringmasterRunnerWake?: { sub: Redis; waiters: Map<string, Set<Waiter>>; ready: Promise<void> } };

function hub() {
  if (holder.__ringmasterRunnerWake) return holder.__ringmasterRunnerWake;
  const sub = createRedis("reader");
  const waiters = new Map<string, Set<Waiter>>();
  sub.on("message", (_channel: string, teamId: string) => {
    const set = waiters.get(teamId);
    if (!set) return;
    waiters.delete(teamId);
    for (const wake of set) wake();
  });
  const ready = sub.subscribe(channel()).then(() => undefined);
  ready.catch((err: Error) => getLogger("runners").warn({ err: err.message }, "runner wake-up channel not subscribed"));
  holder.__ringmasterRunnerWake = { sub, waiters, ready };
  return holder.__ringmasterRunnerWake;
}

/**
 * Resolves true when the team is woken, false after `ms` or when `signal` aborts. The caller
 * registers before it looks for work (`armed`), so a wake-up between the look and the wait is
 * not missed.
 */
export function armWake(teamId: string): { armed: Promise<void>; wait: (ms: number, signal?: AbortSignal) => Promise<boolean>; cancel: () => void } {
  const h = hub();
  let woken = false;
  let notify: (() => void) | null = null;
  const waiter: Waiter = () => { woken = true; notify?.(); };
  const set = h.waiters.get(teamId) ?? new Set();
  set.add(waiter);
  h.waiters.set(teamId, set);
  const cancel = () => {
    const current = h.waiters.get(teamId);
    current?.delete(waiter);
    if (current?.size === 0) h.waiters.delete(teamId);
  };
  const wait = (ms: number, signal?: AbortSignal) => new Promise<boolean>((resolve) => {
    if (woken) return resolve(true);
    const done = (value: boolean) => { clearTimeout(timer); signal?.removeEventListener("abort", onAbort); cancel(); resolve(value); };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    notify = () => done(true);
  });
  return { armed: h.ready.catch(() => {}), wait, cancel };
}

/** Closes this process's subscriber connection (tests, shutdown). */
export async function closeRunnerWake(): Promise<void> {
  const h = holder.__ringmasterRunnerWake;
  holder.__ringmasterRunnerWake = undefined;
  if (h) await h.sub.quit().catch(() => h.sub.disconnect());
}
