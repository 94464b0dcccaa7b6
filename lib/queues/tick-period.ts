/**
 * The safety-net tick of a running project with nothing to do backs off: its period doubles
 * from the project's own interval up to this ceiling (5 s → 10 → 20 → 40 → 80 → 160 s), and any
 * event resets it. Nudges, not this period, start work, so the ceiling costs no reaction; at two
 * queries per idle tick it keeps an idle project under one query a minute (0.75).
 */
export const TICK_BACKOFF_MAX_MS = 160_000;

/** The scheduler's period at a backoff level (0 = the project's own interval). */
export function tickPeriodMs(baseMs: number, level: number): number {
  if (level <= 0 || baseMs >= TICK_BACKOFF_MAX_MS) return baseMs;
  return Math.min(baseMs * 2 ** Math.min(level, 30), TICK_BACKOFF_MAX_MS);
}

/** The next level after a tick: one up when it found nothing to do (until the ceiling), else 0. */
export function nextTickBackoff(baseMs: number, level: number, quiet: boolean): number {
  if (!quiet) return 0;
  return tickPeriodMs(baseMs, level + 1) > tickPeriodMs(baseMs, level) ? level + 1 : level;
}
