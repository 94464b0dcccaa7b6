import type pg from "pg";

export type HistoryRow = {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
};

// Verbatim the DDL Prisma's schema engine runs for Postgres, so `prisma migrate deploy`
// elsewhere finds the table it would have created itself.
const CREATE_HISTORY_TABLE = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

export async function ensureHistory(client: pg.Client): Promise<HistoryRow[]> {
  const { rows } = await client.query<{ exists: boolean }>(
    "SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists",
  );
  if (!rows[0].exists) {
    await client.query(CREATE_HISTORY_TABLE);
    return [];
  }
  const history = await client.query<HistoryRow>("SELECT * FROM _prisma_migrations ORDER BY started_at");
  return history.rows;
}

// One row per migration, as Prisma leaves it after a successful apply: one step, no logs.
export async function recordApplied(client: pg.Client, id: string, name: string, checksum: string) {
  await client.query(
    `INSERT INTO _prisma_migrations
       (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
     VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, now(), 1)`,
    [id, checksum, name],
  );
}
