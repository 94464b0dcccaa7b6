import pg from "pg";

/** A statement as the process sent it: its text, its parameters, and its name when it is a kept (prepared) one. */
export interface SentQuery { text: string; values?: unknown[]; name?: string }

/** Every query this process sends while `work` runs (Prisma's and the pool's alike), in order. */
export async function queriesOf<T>(work: () => Promise<T>): Promise<{ result: T; queries: SentQuery[] }> {
  const queries: SentQuery[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | SentQuery;
    queries.push(typeof first === "string" ? { text: first, values: Array.isArray(args[1]) ? args[1] : undefined } : first);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await work(), queries };
  } finally {
    pg.Client.prototype.query = original;
  }
}

/**
 * Every SQL statement this process sends while `work` runs, in order, as its first line without
 * indentation: the round trips a hot path costs, counted rather than timed. Nothing else of the
 * process may talk to Postgres meanwhile.
 */
export async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const { result, queries } = await queriesOf(work);
  return { result, statements: queries.map((q) => q.text.trim().split("\n")[0].trim()) };
}

/** A statement's verb and first table, e.g. `INSERT ActivityEvent`; `WITH` alone for a statement that opens with its CTEs. */
export function verbOf(sql: string): string {
  const verb = sql.split(/\s/)[0].toUpperCase();
  const table = /\b(?:INTO|UPDATE|FROM)\s+(?:"public"\.)?"(\w+)"/i.exec(sql)?.[1];
  return verb === "WITH" || !table ? verb : `${verb} ${table}`;
}
