import pg from "pg";

/**
 * Every SQL statement this process sends while `work` runs (Prisma's and the pool's alike), in
 * order, as its first line without indentation: the round trips a hot path costs, counted rather
 * than timed. Nothing else of the process may talk to Postgres meanwhile.
 */
export async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    statements.push((typeof first === "string" ? first : first.text).trim().split("\n")[0].trim());
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await work(), statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}

/** A statement's verb and first table, e.g. `INSERT ActivityEvent`; `WITH` alone for a statement that opens with its CTEs. */
export function verbOf(sql: string): string {
  const verb = sql.split(/\s/)[0].toUpperCase();
  const table = /\b(?:INTO|UPDATE|FROM)\s+(?:"public"\.)?"(\w+)"/i.exec(sql)?.[1];
  return verb === "WITH" || !table ? verb : `${verb} ${table}`;
}
