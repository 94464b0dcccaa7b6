/**
 * The run starts this worker process has in flight (claimed, their agent not yet spawned). What
 * refills what a start took (the project's ready worktrees, the sandbox networks made ahead) waits
 * until none is, so a burst's starts do not share the cores and the thread pool with it; at most
 * MAX_WAIT_MS, so a worker that is always starting something still refills.
 */
let inFlight = 0;
let waiting: Array<() => void> = [];
const MAX_WAIT_MS = 1_000;

/** Counts a start in flight; the function returned ends it (once, however often it is called). */
export function startBegun(): () => void {
  inFlight++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    inFlight--;
    if (inFlight === 0) for (const work of waiting.splice(0)) work();
  };
}

/** Runs `work` once this process has no start in flight: at once when it has none. */
export function whenStartsSettle(work: () => void): void {
  if (inFlight === 0) return work();
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(late);
    work();
  };
  const late = setTimeout(() => {
    waiting = waiting.filter((w) => w !== once);
    once();
  }, MAX_WAIT_MS);
  late.unref();
  waiting.push(once);
}
