/**
 * Where a run's start spends its time: named marks from the spawn job's enqueue (or the first
 * mark) to the agent's process start, logged once per run so a bench or an operator sees which
 * stage grew. Durations are per stage, in milliseconds, in the order marked.
 */
export class StartStages {
  private readonly marks: [string, number][] = [];

  /** `queuedAt`/`pickedAt`: when the spawn job was added and when this worker took it (BullMQ's job timestamps). */
  constructor(job: { queuedAt?: number; pickedAt?: number } = {}, private readonly now: () => number = Date.now) {
    this.marks.push(job.queuedAt !== undefined ? ["queued", job.queuedAt] : ["begin", now()]);
    if (job.queuedAt !== undefined && job.pickedAt !== undefined) this.marks.push(["picked", job.pickedAt]);
  }

  mark(name: string): void {
    this.marks.push([name, this.now()]);
  }

  private readonly stepTimes: Record<string, number> = {};

  /**
   * Times one of the steps a stage runs side by side (the worktree beside the run's token, say):
   * a stage's duration is its slowest step's, and this says which one that was.
   */
  async timed<T>(name: string, step: () => Promise<T>): Promise<T> {
    const from = this.now();
    try {
      return await step();
    } finally {
      this.stepTimes[name] = this.now() - from;
    }
  }

  /** Each timed step's own duration, in milliseconds. */
  steps(): Record<string, number> {
    return { ...this.stepTimes };
  }

  /** Each stage's duration since the previous mark, and `total` since the first. */
  durations(): Record<string, number> {
    const out: Record<string, number> = {};
    for (let i = 1; i < this.marks.length; i++) out[this.marks[i][0]] = this.marks[i][1] - this.marks[i - 1][1];
    out.total = this.marks.at(-1)![1] - this.marks[0][1];
    return out;
  }
}
