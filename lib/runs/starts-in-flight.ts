/**
 * The run starts this worker process has in flight (claimed, their agent not yet spawned). What
 * refills what a start took (the project's ready worktrees, the sandbox networks made ahead) waits
 * until none has been for QUIET_MS, so a burst's starts do not share the cores and the thread pool
 * with it: a burst's next start on this worker often begins tens of milliseconds after the last
 * one's agent started, and a refill begun in that gap (a sandbox network's three process starts, a
 * worktree's checkout and walk) stretched the starts after it. At most MAX_WAIT_MS, so a worker
 * that is always starting something still refills.
 */
let inFlight = 0;
/** When the last start ended (Date.now()); none yet: long ago. */
let idleSince = -Infinity;
let waiting: Array<() => void> = [];
let timer: ReturnType<typeof setTimeout> | undefined;
export const QUIET_MS = 250;
const MAX_WAIT_MS = 1_000;
const drained: Array<() => void> = [];

// Tells startsSettled's callers once nothing waits any more.
function tellIfDrained(): void {
  if (waiting.length === 0) for (const done of drained.splice(0)) done();
}

/** Resolves once every refill waiting for the starts to settle has run (for tests and shutdown). */
export function startsSettled(): Promise<void> {
  return waiting.length === 0 ? Promise.resolve() : new Promise((done) => drained.push(done));
}

// Runs what waits once the worker has been without a start for QUIET_MS; a start that begins
// meanwhile puts it off until that one ends.
function settleLater(): void {
  clearTimeout(timer);
  timer = undefined;
  if (inFlight > 0 || waiting.length === 0) return;
  const quietFor = Date.now() - idleSince;
  if (quietFor >= QUIET_MS) {
    for (const work of waiting.splice(0)) work();
    tellIfDrained();
    return;
  }
  // (A clock set back reads as a start just ended: QUIET_MS at most.)
  timer = setTimeout(settleLater, Math.min(QUIET_MS, QUIET_MS - quietFor));
  timer.unref();
}

/** Counts a start in flight; the function returned ends it (once, however often it is called). */
export function startBegun(): () => void {
  inFlight++;
  clearTimeout(timer);
  timer = undefined;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    inFlight--;
    idleSince = Date.now();
    settleLater();
  };
}

/** Runs `work` once this process has had no start in flight for QUIET_MS: at once when it has been so. */
export function whenStartsSettle(work: () => void): void {
  // Run by the settling or by the late timer, whichever comes first; each takes it off the other.
  const once = () => {
    clearTimeout(late);
    work();
  };
  const late = setTimeout(() => {
    waiting = waiting.filter((w) => w !== once);
    work();
    tellIfDrained();
  }, MAX_WAIT_MS);
  late.unref();
  waiting.push(once);
  settleLater();
}
